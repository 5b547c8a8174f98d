// English: the messages of the web client (see ../i18n.js). Keys are grouped by screen.
export default {
  "lang.switch": "Language",

  // The table page's fairness box: face-down cards committed during the game, checked at the end.
  "fair.faceDown.committed": "Face-down cards committed: {count}",
  "fair.faceDown.checking": "Checking the face-down cards against the record…",
  "fair.faceDown.checked": "Face-down cards checked: {count}, each the card committed when it was placed",
  "fair.faceDown.cannotCheck": "Face-down cards committed: {count} (this browser cannot check them here: it needs https)",
  "fair.faceDown.mismatch": "NOT verified: the face-down card of move {move} is not the one committed",
};
