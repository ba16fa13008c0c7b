// What the app's components keep on the page itself (one page, several components, redrawn at every
// rerun), named here so that each file that reads one agrees on its type with the file that sets it.

// shared/inputs/paste_guard.py's guard: the paste limit, and that its one listener is on the page.
declare var __msPasteLimit: number;
declare var __msPasteGuard: boolean | undefined;

// tokenize/live_assets/box.js: what each box (by name) was typed and not yet sent, at which revision.
declare var __msTypedText: Record<string, { rev: number; value: string }> | undefined;
// box.js: each box's text as typed (by name), which view.js encodes; it says so with an "ms-live-text"
// event whose detail is the box's name.
declare var msLiveText: Record<string, string> | undefined;
interface WindowEventMap {
  "ms-live-text": CustomEvent<string>;
}

// tokenize/live_assets/encoder.js: the browser's encoders, one per tokenizer table (see its typedefs).
declare var msEncoder: MsEncoders | undefined;
// view.js: the token picked from the keyboard, which keeps the focus across the page's reruns.
declare var msTokenFocus: { i: number | null } | undefined;
