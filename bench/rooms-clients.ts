// The client side of bench/rooms.bench.ts, in a process of its own (the bench forks several): real WebSocket clients
// that count the vote messages they receive and note when each arrived, so that the server under test, not the
// clients, is what saturates. Driven over the fork's IPC channel: `open` connects clients, `send` makes them send,
// `report` answers the counts, `times` the arrival times of the paced votes. Times are epoch milliseconds
// (`performance.timeOrigin + performance.now()`), comparable between the bench's processes.
import { WebSocket } from "ws";

export type ClientCommand =
  | { type: "open"; urls: string[] }
  | { type: "send"; messages: { client: number; text: string }[]; paced?: number }
  | { type: "reset" }
  | { type: "report" }
  | { type: "times" }
  | { type: "close" };

export interface ClientReport {
  type: "report";
  /** Vote messages received, replies received, and replies that refused. */
  votes: number;
  replies: number;
  refused: number;
  refusal: string;
  /** When the last vote message arrived, and when this process sent its first message since `reset`. */
  lastVoteAt: number;
  firstSentAt: number;
  /** The largest vote message, in bytes, and its statePatch alone. */
  bytes: number;
  patchBytes: number;
  sample: string;
  /** Close codes of sockets the server closed. */
  closes: number[];
}

export type ClientAnswer =
  | { type: "opened" }
  | { type: "sent" }
  | ClientReport
  | { type: "times"; received: number[][]; sent: [number, number][] }
  | { type: "error"; message: string };

const now = () => performance.timeOrigin + performance.now();
const VOTE = '"votedOnSong"';
const REQUEST = '"requestId"';
const REFUSED = '"ok":false';

const sockets: WebSocket[] = [];
/** Per client, when each vote message arrived since the last reset. */
let received: number[][] = [];
/** The paced votes this process sent: [k, when]. */
let sent: [number, number][] = [];
const report: ClientReport = {
  type: "report",
  votes: 0,
  replies: 0,
  refused: 0,
  refusal: "",
  lastVoteAt: 0,
  firstSentAt: 0,
  bytes: 0,
  patchBytes: 0,
  sample: "",
  closes: [],
};

const answer = (message: ClientAnswer) => process.send?.(message);

function open(url: string, index: number) {
  // Receiving is most of a client's work: no UTF-8 check, no decoding unless a message is the largest yet.
  const ws = new WebSocket(url, { skipUTF8Validation: true, perMessageDeflate: false });
  ws.on("message", (data: Buffer) => {
    if (data.includes(VOTE)) {
      const at = now();
      report.votes++;
      report.lastVoteAt = at;
      received[index]?.push(at);
      if (data.length > report.bytes) {
        report.bytes = data.length;
        report.sample = data.toString();
        const patch = (JSON.parse(report.sample) as { statePatch?: unknown }).statePatch;
        report.patchBytes = patch ? Buffer.byteLength(JSON.stringify(patch)) : 0;
      }
    } else if (data.includes(REQUEST)) {
      report.replies++;
      if (data.includes(REFUSED)) {
        report.refused++;
        report.refusal ||= data.toString();
      }
    }
  });
  ws.on("close", (code) => {
    report.closes.push(code);
  });
  return new Promise<WebSocket>((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

process.on("message", async (command: ClientCommand) => {
  try {
    switch (command.type) {
      case "open": {
        // A hundred at a time: the server's accept queue is not the thing measured.
        for (let i = 0; i < command.urls.length; i += 100) {
          const batch = command.urls.slice(i, i + 100);
          const opened = await Promise.all(batch.map((url, j) => open(url, i + j))).catch((err: Error) => {
            throw new Error(`${err.message} after ${sockets.length} of ${command.urls.length} sockets opened`);
          });
          sockets.push(...opened);
        }
        received = sockets.map(() => []);
        return answer({ type: "opened" });
      }
      case "send": {
        const at = now();
        report.firstSentAt ||= at;
        if (command.paced !== undefined) sent.push([command.paced, at]);
        for (const { client, text } of command.messages) sockets[client]?.send(text);
        return answer({ type: "sent" });
      }
      case "reset":
        for (const r of received) r.length = 0;
        sent = [];
        report.firstSentAt = 0;
        report.closes.length = 0;
        return answer({ ...report });
      case "report":
        return answer({ ...report });
      case "times":
        return answer({ type: "times", received, sent });
      case "close":
        for (const ws of sockets) ws.terminate();
        process.disconnect?.();
        return;
    }
  } catch (err) {
    answer({ type: "error", message: String(err) });
  }
});
