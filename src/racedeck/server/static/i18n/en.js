// English: the messages of the web client (see ../i18n.js). Keys are grouped by screen.
export default {
  "lang.switch": "Language",

  // The table page's fairness box: face-down cards committed during the game, checked at the end.
  "fair.faceDown.committed.one": "1 face-down card committed",
  "fair.faceDown.committed.other": "{count} face-down cards committed",
  "fair.faceDown.checking.one": "Checking 1 face-down card against the record…",
  "fair.faceDown.checking.other": "Checking {count} face-down cards against the record…",
  "fair.faceDown.checked.one": "1 face-down card checked: it is the card committed when it was placed",
  "fair.faceDown.checked.other": "{count} face-down cards checked: each is the card committed when it was placed",
  "fair.faceDown.cannotCheck.one": "1 face-down card committed (this browser cannot check it here: it needs https)",
  "fair.faceDown.cannotCheck.other": "{count} face-down cards committed (this browser cannot check them here: it needs https)",
  "fair.faceDown.mismatch": "NOT verified: the face-down card of move {move} is not the one committed",
};
