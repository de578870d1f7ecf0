/**
 * Members and the admin as the soak plays them: over Teebox's HTTP API and its WebSocket, as the
 * web app does, signing in again when a session has ended (sessions last 14 days, and the soak
 * lives through months).
 */
import { CART_CHOICES, GUEST_FEE_CHOICES, MEMBER_FEE_CHOICES, type ClubAccount } from "../../../src/club-sim/demo-data.ts";
import type { ClientAction, ServerMessage } from "../../../src/realtime/messages.ts";

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** A network error or a 5xx from Teebox: never expected while it runs. */
export class ServerTrouble extends Error {}

/** The socket's upgrade was refused or failed; `act` signs in again once before it counts as trouble. */
class SocketNeverOpened extends ServerTrouble {
  constructor(action: string) {
    super(`${action}: the socket did not open`);
  }
}

/** Bun's WebSocket sends headers (the session cookie, our Origin); the DOM typing does not know them. */
const HeaderedWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;

const SOCKET_ANSWER_MS = 30_000;

export class Client {
  cookie = "";
  private sequence = 0;

  constructor(
    readonly baseUrl: () => string,
    readonly username: string,
    public password: string,
  ) {}

  async signIn(): Promise<void> {
    const url = this.baseUrl();
    let res: Response;
    try {
      res = await fetch(`${url}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ username: this.username, password: this.password }),
      });
    } catch (error) {
      throw new ServerTrouble(`sign-in of ${this.username}: ${(error as Error).message}`);
    }
    // A refused sign-in (a password an admin changed) is the soak's surprise; a 5xx is Teebox failing a member.
    const Failure = res.status >= 500 ? ServerTrouble : Error;
    if (!res.ok) throw new Failure(`sign-in of ${this.username} failed: ${res.status} ${await res.text()}`);
    this.cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  }

  /** One JSON call; a 401 signs in again and tries once more. 5xx and network errors throw. */
  async call<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    if (!this.cookie) await this.signIn();
    let answer = await this.send<T>(method, path, body);
    if (answer.status === 401) {
      await this.signIn();
      answer = await this.send<T>(method, path, body);
    }
    return answer;
  }

  /** A call that must succeed. */
  async ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status >= 300) throw new Error(`${this.username} ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const url = this.baseUrl();
    let res: Response;
    try {
      res = await fetch(`${url}${path}`, {
        method,
        headers: { accept: "application/json", "content-type": "application/json", origin: url, cookie: this.cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ServerTrouble(`${method} ${path}: ${(error as Error).message}`);
    }
    const text = await res.text();
    if (res.status >= 500) throw new ServerTrouble(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /**
   * One socket action as the web app sends it: a socket opened for it (as a phone opens the app),
   * the action, its answer (matched by requestId), the socket closed.
   */
  async act(action: ClientAction, payload: unknown): Promise<ServerMessage> {
    if (!this.cookie) await this.signIn();
    let answer = await this.actOnce(action, payload).catch((error: unknown) => {
      // The upgrade is refused (401) when the session has ended (an admin disabled the member
      // meanwhile, say): the socket never opens. Signed in again, it is tried once more.
      if (error instanceof SocketNeverOpened) return null;
      throw error;
    });
    if (answer === null || (answer.type === "error" && answer.errorKey === "auth.required")) {
      await this.signIn();
      answer = await this.actOnce(action, payload);
    }
    return answer;
  }

  private actOnce(action: ClientAction, payload: unknown): Promise<ServerMessage> {
    const url = this.baseUrl();
    const requestId = `${this.username}-${++this.sequence}`;
    return new Promise((resolve, reject) => {
      const socket = new HeaderedWebSocket(`${url.replace(/^http/, "ws")}/v1/ws`, { headers: { cookie: this.cookie, origin: url } });
      const finish = (outcome: ServerMessage | Error) => {
        clearTimeout(timer);
        socket.onclose = null;
        socket.close();
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const timer = setTimeout(() => finish(new ServerTrouble(`${action}: no answer within ${SOCKET_ANSWER_MS} ms`)), SOCKET_ANSWER_MS);
      let isOpen = false;
      socket.onopen = () => {
        isOpen = true;
        socket.send(JSON.stringify({ action, payload, requestId }));
      };
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as ServerMessage;
        if ("requestId" in message && message.requestId === requestId) finish(message);
      };
      socket.onerror = () => finish(isOpen ? new ServerTrouble(`${action}: the socket failed`) : new SocketNeverOpened(action));
      socket.onclose = (event) => finish(isOpen ? new ServerTrouble(`${action}: the socket closed (${event.code})`) : new SocketNeverOpened(action));
    });
  }
}

export interface Member {
  index: number;
  userId: number;
  account: ClubAccount;
  client: Client;
}

export const usernameOf = (index: number) => `soak${String(index + 1).padStart(3, "0")}`;

/** A member as an admin creates them and as they finish the setup wizard: own password, profile, club login. */
export async function createMember(admin: Client, baseUrl: () => string, index: number, account: ClubAccount): Promise<Member> {
  const username = usernameOf(index);
  const name = `${account.firstName} ${account.lastName}`;
  const created = await admin.ok<{ id: number }>("POST", "/v1/admin/users", {
    username,
    password: `${username}-first`,
    role: "user",
    status: "active",
    name,
    memberId: account.membershipNumber,
    southwoods_email: account.email,
  });
  const client = new Client(baseUrl, username, `${username}-first`);
  await client.signIn();
  await client.ok("POST", "/v1/my/user/set-password", { currentPassword: `${username}-first`, newPassword: `${username}-own-password` });
  client.password = `${username}-own-password`;
  await client.ok("PUT", "/v1/my/profile", {
    name,
    memberId: account.membershipNumber,
    southwoods_email: account.email,
    golf_password: account.password,
    defaultCartType: CART_CHOICES[0],
    defaultFeeGuest: GUEST_FEE_CHOICES[0],
    defaultFeeMember: MEMBER_FEE_CHOICES[0],
  });
  return { index, userId: created.id, account, client };
}

/** Runs `task` over `items`, at most `limit` at once. */
export async function inBatches<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
