/**
 * The WebSocket client. It reconnects 5000 ms after a
 * drop, and routes the app-wide messages: `status: updated` → data refresh subscribers,
 * `uiTextUpdated` → text reload, `toast` → toast, `error` → error toast.
 */
import { apiPaths } from "./api-paths.ts";
import { clientLog } from "./client-log.ts";
import { useTextStore } from "./text-store.ts";
import { showToast } from "./toast-store.ts";
import type { ClientAction, ServerMessage } from "./types.ts";

export const SOCKET_PATH = apiPaths.socket;
export const RECONNECT_DELAY_MS = 5000;

/** The part of the browser WebSocket this client uses, so tests can hand in a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
}

export interface SocketTimer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface SocketClientOptions {
  url?: () => string;
  createSocket?: (url: string) => WebSocketLike;
  timer?: SocketTimer;
}

export type ServerMessageListener = (message: ServerMessage) => void;

export interface SocketClient {
  /** Opens the socket (no-op when already open or connecting) and keeps it open until `close`. */
  connect(): void;
  /** Closes on purpose: no reconnect. */
  close(): void;
  /** Sends a client action; false when the socket is not open, so the caller can tell the member. */
  send(action: ClientAction, payload?: unknown, requestId?: string): boolean;
  subscribe(listener: ServerMessageListener): () => void;
  isOpen(): boolean;
}

const OPEN = 1;

export function socketUrlFor(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${SOCKET_PATH}`;
}

export function createSocketClient(options: SocketClientOptions = {}): SocketClient {
  const urlOf = options.url ?? (() => socketUrlFor(window.location));
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as WebSocketLike);
  const timer = options.timer ?? {
    set: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clear: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const listeners = new Set<ServerMessageListener>();
  let socket: WebSocketLike | null = null;
  let reconnectHandle: unknown;
  let isWanted = false;
  let hasBeenOpen = false;

  function open(): void {
    reconnectHandle = undefined;
    const current = createSocket(urlOf());
    socket = current;
    current.onopen = () => {
      // Pushes sent while we were away are lost; a reconnect counts as "everything may have changed".
      if (hasBeenOpen) emit({ type: "status", status: "updated" });
      hasBeenOpen = true;
    };
    current.onmessage = (event) => {
      const message = parseServerMessage(event.data);
      if (message) emit(message);
      else clientLog.warn("Ignored an unreadable socket message", { data: String(event.data).slice(0, 200) });
    };
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      if (isWanted) reconnectHandle = timer.set(open, RECONNECT_DELAY_MS);
    };
    current.onerror = () => {
      // The close event follows and schedules the reconnect.
    };
  }

  function emit(message: ServerMessage): void {
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch (error) {
        clientLog.error("Socket message handler failed", { type: message.type, error: String(error) });
      }
    }
  }

  return {
    connect() {
      isWanted = true;
      if (socket || reconnectHandle !== undefined) return;
      open();
    },
    close() {
      isWanted = false;
      hasBeenOpen = false;
      if (reconnectHandle !== undefined) timer.clear(reconnectHandle);
      reconnectHandle = undefined;
      const current = socket;
      socket = null;
      current?.close(1000, "closed by client");
    },
    send(action, payload, requestId) {
      if (!socket || socket.readyState !== OPEN) return false;
      socket.send(JSON.stringify(requestId === undefined ? { action, payload } : { action, payload, requestId }));
      return true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isOpen: () => socket?.readyState === OPEN,
  };
}

/** Light shape check: the web bundle does not carry zod, and unknown types are simply ignored by listeners. */
export function parseServerMessage(data: unknown): ServerMessage | null {
  if (typeof data !== "string") return null;
  try {
    const value: unknown = JSON.parse(data);
    if (value === null || typeof value !== "object") return null;
    return typeof (value as { type?: unknown }).type === "string" ? (value as ServerMessage) : null;
  } catch {
    return null;
  }
}

/** What every page needs from the socket, whatever feature is on screen. */
export function routeAppMessage(message: ServerMessage): void {
  switch (message.type) {
    case "uiTextUpdated":
      void useTextStore.getState().loadTexts();
      break;
    case "toast":
      showToast(message.toast.kind, message.toast);
      break;
    case "error":
      showToast("error", { message: message.message, textKey: message.errorKey });
      break;
    default:
      break;
  }
}

export const appSocket: SocketClient = createSocketClient();
appSocket.subscribe(routeAppMessage);

/** Runs `listener` whenever the server says data changed (`status: updated`) or the socket came back. */
export function onDataRefresh(listener: () => void, client: SocketClient = appSocket): () => void {
  return client.subscribe((message) => {
    if (message.type === "status" && message.status === "updated") listener();
  });
}
