// The stage in an offline lesson file (mergescope_ui/shared/stage/offline.py): stage.js's own drawStage,
// with this bridge in place of Streamlit's. The file holds every step of its range in one window (the JSON
// block #ms-lesson-data), so the stage steps, plays and pages with no server; what it reports (Shown) is
// answered here: a step outside the range moves it back to the nearest one the file holds, with a notice.
// The page's own buttons: presenter mode (the window's `large`, and the presenter CSS) and the theme.
// offline.py puts this file after stage.js in one module script, without its import line.
import drawStage from "./stage.js";

/**
 * What offline.py writes in the JSON block: the window (every step of the range, each view's card and
 * chart packed: offline.py pack_blocks), the table of the strings they share, and the notices for a step
 * before or after the range.
 * @typedef {import("./stage.js").Window} Window
 * @typedef {import("./stage.js").StepView} StepView
 * @typedef {import("./stage.js").Element} Element
 * @typedef {import("./stage.js").Shown} Shown
 * @typedef {string | number | [string | number, (string | number)[][], Packed[]]} Packed
 * @typedef {Omit<StepView, "card" | "pairs"> & {card: Packed[], pairs: Packed[]}} PackedView
 * @typedef {{window: Omit<Window, "views"> & {views: PackedView[]}, strings: string[], before_first: string,
 *   after_last: string}} Lesson
 */

const THEMES = ["light dark", "light", "dark"]; // auto (the system's), then light, then dark
const THEME_NAMES = ["Theme: auto", "Theme: light", "Theme: dark"];

/** The lesson's data, from the JSON block (text only: never read as markup). @returns {Lesson} */
function readLesson() {
  const block = /** @type {HTMLElement} */ (document.getElementById("ms-lesson-data"));
  return JSON.parse(block.textContent || "null");
}

/** The views as the stage reads them: each packed element a record again, each index its string.
 * @param {Lesson} lesson @returns {Window} */
function unpack(lesson) {
  const strings = lesson.strings;
  /** @param {string | number} value */
  const text = (value) => (typeof value === "number" ? strings[value] : value);
  /** @param {Packed} node @returns {Element | string} */
  const element = (node) => {
    if (!Array.isArray(node)) return text(node);
    const [tag, attrs, children] = node;
    return { tag: text(tag), attrs: attrs.map((pair) => pair.map(text)), children: children.map(element) };
  };
  /** @param {PackedView} view @returns {StepView} */
  const view = (view) => ({ ...view, card: view.card.map(element), pairs: view.pairs.map(element) });
  return { ...lesson.window, views: lesson.window.views.map(view) };
}

function startLesson() {
  const lesson = readLesson();
  const host = /** @type {HTMLElement} */ (document.querySelector(".ms-lesson-stage"));
  const presenterCss = /** @type {HTMLStyleElement | null} */ (document.getElementById("ms-presenter"));
  const presenter = /** @type {HTMLButtonElement} */ (document.querySelector(".ms-lesson-presenter"));
  const theme = /** @type {HTMLButtonElement} */ (document.querySelector(".ms-lesson-theme"));
  document.documentElement.classList.add("ms-js"); // offline.css shows the stage and its tools
  let win = unpack(lesson);
  const { lo, hi } = win;
  let pending = 0;

  const draw = () =>
    drawStage({
      data: win,
      key: "lesson",
      name: "mergescope_stage",
      parentElement: host,
      setStateValue: (_name, value) => answer(/** @type {Shown} */ (value)),
      setTriggerValue: () => answer(null),
    });

  /** The stage needs a window: the same one again (a step it holds), or the nearest step it holds.
   * @param {Shown | null} shown */
  const answer = (shown) => {
    if (shown && !shown.window) return; // "settled": nothing beside the stage follows it here
    clearTimeout(pending);
    pending = setTimeout(() => {
      const k = shown ? shown.position : -1;
      if (k >= lo && k <= (win.finished ? win.last : hi)) win = { ...win, notice: "" };
      else {
        const to = k < lo ? lo : win.finished ? win.last : hi;
        const notice = k < lo ? lesson.before_first : lesson.after_last;
        win = { ...win, serial: win.serial + 1, position: to, notice };
      }
      draw();
    }, 0);
  };

  presenter.addEventListener("click", () => {
    const on = presenter.getAttribute("aria-pressed") !== "true";
    presenter.setAttribute("aria-pressed", String(on));
    if (presenterCss) presenterCss.media = on ? "all" : "not all";
    document.documentElement.classList.toggle("ms-lesson-large", on);
    win = { ...win, large: on };
    draw();
  });
  let shade = 0;
  theme.addEventListener("click", () => {
    shade = (shade + 1) % THEMES.length;
    document.documentElement.style.colorScheme = THEMES[shade];
    theme.textContent = THEME_NAMES[shade];
    document.documentElement.dataset.theme = ["auto", "light", "dark"][shade];
  });
  draw();
}

startLesson();
