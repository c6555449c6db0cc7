/** The catalogue search answers 20 songs a page (spec 9); the box searches 300 ms after the last key. */
export const SEARCH_PAGE = 20;
export const SEARCH_DEBOUNCE_MS = 300;
/** Where an "add" sends a song: the queue, or one of the viewer's crates by uuid. */
export const QUEUE = "queue";
