// The workspace editor's glue: CodeMirror 6 (vendored by build.py, resolved
// through index.html's import map) set up the way Wiggum wants it.  Python
// (wiggum/web/views/workspace/editor.py) adds this module with a <script src>
// the first time a file is opened, and drives it through globalThis.wiggumEditor.
// Only what no Python can do from Pyodide lives here: building the
// EditorView with its extensions and the keymap (the key event must be
// prevented synchronously, before the browser's own "save page" runs).
import { EditorState, Compartment } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import {
  HighlightStyle, syntaxHighlighting, bracketMatching, indentOnInput, foldGutter, foldKeymap,
} from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

// The chat's Pygments colours (static/app.css --hl-*): one theme for both.
const wiggumHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.operatorKeyword, t.definitionKeyword], color: "var(--hl-keyword)" },
  { tag: [t.string, t.special(t.string), t.regexp, t.attributeValue], color: "var(--hl-string)" },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: "var(--hl-comment)", fontStyle: "italic" },
  { tag: [t.number, t.bool, t.null, t.atom, t.unit, t.color], color: "var(--hl-number)" },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.variableName), t.className, t.attributeName], color: "var(--hl-name)" },
  { tag: [t.tagName, t.standard(t.variableName), t.self, t.typeName], color: "var(--hl-builtin)" },
  { tag: [t.operator, t.punctuation, t.angleBracket, t.bracket], color: "var(--hl-op)" },
  { tag: [t.heading], fontWeight: "bold", color: "var(--hl-name)" },
  { tag: [t.emphasis], fontStyle: "italic" },
  { tag: [t.strong], fontWeight: "bold" },
  { tag: [t.link, t.url], color: "var(--hl-string)", textDecoration: "underline" },
  { tag: [t.propertyName], color: "var(--hl-name)" },
  { tag: [t.invalid], color: "#c0392b" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: ".8rem", backgroundColor: "var(--surface, #fff)", color: "inherit" },
  ".cm-scroller": { fontFamily: "var(--mono, ui-monospace, monospace)", lineHeight: "1.45" },
  ".cm-gutters": { backgroundColor: "var(--surface, #fff)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--accent, #36c) 7%, transparent)" },
  "&.cm-focused": { outline: "none" },
});

const LANGS = {
  html: async () => (await import("@codemirror/lang-html")).html(),
  css: async () => (await import("@codemirror/lang-css")).css(),
  javascript: async () => (await import("@codemirror/lang-javascript")).javascript(),
  json: async () => (await import("@codemirror/lang-json")).json(),
  markdown: async () => (await import("@codemirror/lang-markdown")).markdown(),
  xml: async () => (await import("@codemirror/lang-xml")).xml(),
};

/** A new editor in `parent` with `text`; `lang` one of LANGS' names or "".
 *  opts.onChange() after every edit, opts.onSave() on Mod-s. */
async function create(parent, text, lang, opts) {
  const language = new Compartment();
  let saved = null, pending = null;  // the doc as last saved/loaded: dirty = the doc differs from it
  const onChange = opts && opts.onChange;
  const onSave = opts && opts.onSave;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), foldGutter(), highlightSpecialChars(),
        history(), drawSelection(), indentOnInput(), bracketMatching(),
        highlightActiveLine(), highlightSelectionMatches(),
        syntaxHighlighting(wiggumHighlight), theme, language.of([]),
        keymap.of([
          { key: "Mod-s", preventDefault: true, run: () => { if (onSave) onSave(); return true; } },
          ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, indentWithTab,
        ]),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && onChange) onChange(!u.state.doc.eq(saved));
        }),
        EditorView.contentAttributes.of({ "aria-label": "File text", "data-testid": "editor-content" }),
      ],
    }),
  });
  saved = view.state.doc;
  // Highlighting arrives a moment later for a language not yet loaded: the
  // text is readable (and editable) at once.
  if (LANGS[lang]) {
    LANGS[lang]().then((ext) => view.dispatch({ effects: language.reconfigure(ext) })).catch(
      (err) => console.warn("[wiggum editor] no highlighting for", lang, err));
  }
  return {
    view,
    getText: () => view.state.doc.toString(),
    /** The text to save; markSaved() then marks exactly this version saved
     *  (typing during the write stays unsaved). */
    takeText: () => { pending = view.state.doc; return pending.toString(); },
    /** Replace the whole text (Ralph's version taken): one undoable change. */
    setText: (s) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: s } }),
    /** The current text is what the disk holds now. */
    markSaved: () => {
      saved = pending || view.state.doc;
      pending = null;
      if (onChange) onChange(!view.state.doc.eq(saved));
    },
    isDirty: () => !view.state.doc.eq(saved),
    focus: () => view.focus(),
    /** Put the cursor at the start of line n (from 1) and scroll it into the middle. */
    goTo: (n) => {
      const line = view.state.doc.line(Math.max(1, Math.min(n, view.state.doc.lines)));
      view.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: "center" }) });
    },
    destroy: () => view.destroy(),
  };
}

globalThis.wiggumEditor = { create, languages: Object.keys(LANGS) };
document.dispatchEvent(new CustomEvent("wiggum-editor-ready"));
