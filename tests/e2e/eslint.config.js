// ESLint for the browser client (src/racedeck/server/static/**/*.js): plain ES modules the
// browser loads as they are, with no build step, so a broken import or an undefined name
// would otherwise show only in a browser test. `make lint-js` runs it from the repository's
// root (the file patterns below are relative to the working directory):
//
//   tests/e2e/node_modules/.bin/eslint --config tests/e2e/eslint.config.js 'src/racedeck/server/static/**/*.js'
//
// ESLint's recommended rules (no-undef, no-unused-vars, no-redeclare among them) with the
// browser's globals, and one rule of our own, local/import-exists: a static import or
// re-export names a module that is there and a name that module exports (ESLint alone sees
// neither). CommonJS (this package has no "type": "module"), so it loads with every Node that
// ESLint 9 supports, Debian's included.

const fs = require("node:fs");
const path = require("node:path");
const js = require("@eslint/js");
const globals = require("globals");

const STATIC = "src/racedeck/server/static";

// The names a module exports, by its path (null: it re-exports a whole module, so any name
// may be there), read again when the file changes.
const exportsCache = new Map();
function exportedNames(file, parser) {
  const mtime = fs.statSync(file).mtimeMs;
  const cached = exportsCache.get(file);
  if (cached && cached.mtime === mtime) return cached.names;
  const ast = parser.parse(fs.readFileSync(file, "utf8"), { ecmaVersion: "latest", sourceType: "module" });
  let names = new Set();
  for (const node of ast.body) {
    if (node.type === "ExportDefaultDeclaration") names.add("default");
    else if (node.type === "ExportAllDeclaration") {
      if (node.exported) names.add(node.exported.name ?? node.exported.value);
      else names = null;
    } else if (node.type === "ExportNamedDeclaration") {
      const d = node.declaration;
      if (d && d.id) names.add(d.id.name);
      else if (d && d.declarations) {
        for (const v of d.declarations) for (const id of idsOf(v.id)) names.add(id);
      }
      for (const s of node.specifiers) names.add(s.exported.name ?? s.exported.value);
    }
    if (names === null) break;
  }
  exportsCache.set(file, { mtime, names });
  return names;
}

// The names a declaration's pattern binds (`const {a, b: [c]} = …` binds a and c).
function idsOf(pattern) {
  if (!pattern) return [];
  switch (pattern.type) {
    case "Identifier": return [pattern.name];
    case "ObjectPattern": return pattern.properties.flatMap((p) => idsOf(p.type === "RestElement" ? p.argument : p.value));
    case "ArrayPattern": return pattern.elements.flatMap(idsOf);
    case "RestElement": return idsOf(pattern.argument);
    case "AssignmentPattern": return idsOf(pattern.left);
    default: return [];
  }
}

const importExists = {
  meta: {
    type: "problem",
    docs: { description: "a static import names a module that exists and names it exports" },
    schema: [],
  },
  create(context) {
    const parser = context.languageOptions.parser;
    function check(node) {
      const source = node.source && node.source.value;
      if (typeof source !== "string") return;
      let file;
      if (source.startsWith("./") || source.startsWith("../")) file = path.resolve(path.dirname(context.filename), source);
      else if (source.startsWith("/static/")) file = path.resolve(STATIC, source.slice("/static/".length));
      else return; // a bare name: none in the client
      if (!fs.existsSync(file)) {
        context.report({ node: node.source, message: `'${source}' is no file (${path.relative(process.cwd(), file)}).` });
        return;
      }
      const names = exportedNames(file, parser);
      if (names === null) return;
      for (const s of node.specifiers || []) {
        let wanted = null;
        if (s.type === "ImportDefaultSpecifier") wanted = "default";
        else if (s.type === "ImportSpecifier") wanted = s.imported.name ?? s.imported.value;
        else if (s.type === "ExportSpecifier") wanted = s.local.name ?? s.local.value;
        if (wanted !== null && !names.has(wanted)) {
          context.report({ node: s, message: `'${source}' exports no '${wanted}'.` });
        }
      }
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: (node) => { if (node.source) check(node); },
      ExportAllDeclaration: check,
    };
  },
};

module.exports = [
  {
    files: [`${STATIC}/**/*.js`],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { local: { rules: { "import-exists": importExists } } },
    rules: {
      ...js.configs.recommended.rules,
      // An unused catch binding or argument is often there to document a signature.
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-undef": "error",
      "no-redeclare": "error",
      "local/import-exists": "error",
    },
  },
];
