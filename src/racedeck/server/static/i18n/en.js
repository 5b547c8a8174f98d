// English: the messages of the web client (see ../i18n.js). Keys are grouped by screen.
export default {
  "lang.switch": "Language",
};
