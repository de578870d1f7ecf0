/**
 * A share of the members' browsers for scripts/bench/fanout.ts, on a thread of its own: it opens its
 * sockets, and for each round notes when each socket received the broadcast (on the shared wall
 * clock, `performance.timeOrigin + performance.now()`), doing nothing else in the message handler,
 * so that one thread's turn through a thousand handlers is not counted as the server's fan-out.
 */
declare const self: Worker;

export type ReceiverCommand =
  | { type: "open"; wsUrl: string; origin: string; cookies: string[]; batch: number }
  | { type: "arm"; round: number; timeoutMs: number }
  | { type: "close" };

export type ReceiverReport = { type: "opened"; count: number } | { type: "armed"; round: number } | { type: "received"; round: number; times: number[]; missing: number };

/** Bun's WebSocket sends headers (the session cookie, our Origin); the DOM typing of its constructor does not know them. */
const HeaderedWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;

interface Receiver {
  socket: WebSocket;
  /** Receipt of the first message of the current round, and its text (read after the round). */
  at: number | null;
  text: string | null;
}

const receivers: Receiver[] = [];
const report = (message: ReceiverReport) => self.postMessage(message);
const now = () => performance.timeOrigin + performance.now();

function open(wsUrl: string, origin: string, cookie: string): Promise<Receiver> {
  return new Promise((resolve, reject) => {
    const socket = new HeaderedWebSocket(wsUrl, { headers: { cookie, origin } });
    const receiver: Receiver = { socket, at: null, text: null };
    socket.onopen = () => resolve(receiver);
    socket.onerror = () => reject(new Error("a socket failed to open"));
    socket.onmessage = (event) => {
      // Only a cheap look at the text here; it is read properly after the round.
      if (receiver.at !== null || typeof event.data !== "string" || !event.data.startsWith('{"type":"status"')) return;
      receiver.at = now();
      receiver.text = event.data;
    };
  });
}

/** The broadcast the round waits for: `status: updated`. */
const isBroadcast = (text: string | null) => {
  if (text === null) return false;
  const message = JSON.parse(text) as { type?: string; status?: string };
  return message.type === "status" && message.status === "updated";
};

async function runRound(round: number, timeoutMs: number): Promise<void> {
  for (const r of receivers) {
    r.at = null;
    r.text = null;
  }
  report({ type: "armed", round });
  const deadline = now() + timeoutMs;
  while (receivers.some((r) => r.at === null) && now() < deadline) await Bun.sleep(2);
  const times = receivers.filter((r) => isBroadcast(r.text)).map((r) => r.at as number);
  report({ type: "received", round, times, missing: receivers.length - times.length });
}

self.onmessage = async (event: MessageEvent<ReceiverCommand>) => {
  const command = event.data;
  if (command.type === "open") {
    for (let i = 0; i < command.cookies.length; i += command.batch) {
      receivers.push(...(await Promise.all(command.cookies.slice(i, i + command.batch).map((cookie) => open(command.wsUrl, command.origin, cookie)))));
    }
    report({ type: "opened", count: receivers.length });
  } else if (command.type === "arm") void runRound(command.round, command.timeoutMs);
  else for (const r of receivers) r.socket.close();
};
