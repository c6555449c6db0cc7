/**
 * A small progress renderer for stderr. On a terminal: one bar redrawn in place
 * (`seed [##########..........] 12/40 users: dj-aurora`). Elsewhere (a pipe, a CI log): one plain line per step, so
 * logs stay readable. stdout is left alone for the command's result (e.g. --json).
 */
export interface Progress {
  /** Moves the bar on by `by` and names what is being done. */
  tick(label: string, by?: number): void;
  /** Adds steps discovered on the way (e.g. songs still being made). */
  grow(by: number): void;
  /** Says something without moving the bar. */
  note(text: string): void;
  done(summary?: string): void;
}

export interface ProgressOptions {
  total: number;
  title: string;
  stream?: NodeJS.WriteStream;
  /** Force the terminal or plain rendering (default: the stream's isTTY). */
  tty?: boolean;
  width?: number;
}

export function progress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? !!stream.isTTY;
  const width = options.width ?? 30;
  let total = Math.max(options.total, 0);
  let current = 0;
  let label = "";
  let drawn = false;

  const bar = () => {
    const ratio = total ? Math.min(current / total, 1) : 1;
    const filled = Math.round(ratio * width);
    return `${options.title} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${current}/${total}`;
  };
  const draw = () => {
    if (!tty) return;
    const columns = stream.columns || 100;
    const line = `${bar()} ${label}`.slice(0, columns - 1);
    stream.write(`\r\x1b[2K${line}`);
    drawn = true;
  };
  const clear = () => {
    if (tty && drawn) stream.write("\r\x1b[2K");
    drawn = false;
  };

  return {
    tick(text, by = 1) {
      current += by;
      label = text;
      if (tty) draw();
      else stream.write(`${options.title} ${current}/${total} ${text}\n`);
    },
    grow(by) {
      total += by;
      if (tty) draw();
    },
    note(text) {
      clear();
      stream.write(`${text}\n`);
      draw();
    },
    done(summary) {
      clear();
      if (tty) stream.write(`${bar()}\n`);
      if (summary) stream.write(`${summary}\n`);
    },
  };
}
