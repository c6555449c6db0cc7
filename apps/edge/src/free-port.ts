import { createServer } from "node:net";

/**
 * A port for a server a test starts in another process. Picked below the kernel's ephemeral range (32768 and up on
 * Linux): a port the kernel handed out with `listen(0)` and that was then closed can be taken by any outgoing
 * connection (Chromium's, workerd's, the database's) before the other process binds it. Below that range only
 * another listener can take it, so a random pick that binds here is very likely still free a moment later.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error("no free port between 20000 and 32000");
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}
