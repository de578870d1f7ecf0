/**
 * The realtime hub: upgrades /v1/ws for signed-in users from our own origin, keeps one topic per
 * user and one for all members, dispatches client actions to the features that handle them, and
 * publishes server messages. It only publishes what services tell it.
 */
import type { Server, ServerWebSocket } from "bun";
import type { SessionUser } from "../domain/session-user.ts";
import type { z } from "zod";
import { describeIssue } from "../lib/validate.ts";
import { errorText } from "../lib/errors.ts";
import type { UiTextKey } from "../domain/ui-text/index.ts";
import { SOCKET_ACTIONS_PER_SECOND, SOCKET_MAX_MESSAGE_BYTES, SOCKET_MAX_PAYLOAD_BYTES, SOCKET_MAX_PER_USER } from "../lib/limits.ts";
import { clientMessageSchema, REQUEST_ID_MAX_LENGTH, type ClientAction, type ServerMessage } from "./messages.ts";

export interface SocketData {
  /** The user as at the upgrade: the socket's topics only. Actions use `current()`. */
  user: SessionUser;
  sessionId: string;
  /**
   * Reads the user behind the session as stored now (null: signed out, disabled, deleted). Set by
   * the upgrade, so every action acts as the user is now, never as they were when the tab opened.
   */
  current?: () => Promise<SessionUser | null>;
  /** Actions of this socket in the current second, for the per-socket rate. */
  rate?: { second: number; count: number };
}

export interface ActionContext {
  user: SessionUser;
  sessionId: string;
  requestId?: string;
  /** Answers this socket only. */
  reply(message: ServerMessage): void;
}

export type ActionHandler = (ctx: ActionContext, payload: unknown) => Promise<void> | void;

/** Thrown by a handler to answer the member with an `error` message. */
export class ActionError extends Error {
  constructor(
    message: string,
    readonly errorKey?: string,
  ) {
    super(message);
  }
}

/** Validates an action's payload; a bad one is answered to the member as an `error` message. */
export function parseActionPayload<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> {
  const result = schema.safeParse(payload);
  if (!result.success) {
    const problem = describeIssue(result.error, payload);
    throw new ActionError(problem.message, problem.errorKey);
  }
  return result.data;
}

/** An `error` answer told with a UI text, naming the action's request id when there is one. */
function errorMessage(key: UiTextKey, requestId: string | undefined, context?: Record<string, string | number>): ServerMessage {
  const message: ServerMessage = { type: "error", message: errorText(key, context), errorKey: key };
  return requestId === undefined ? message : { ...message, requestId };
}

/**
 * The request id of a message that is refused before it is read as an action (too many, not an
 * action we know), so the client can still tell which of its messages it was. Only a message
 * within the answered size is looked into.
 */
function requestIdOf(raw: string): string | undefined {
  if (raw.length > SOCKET_MAX_MESSAGE_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    const id = value !== null && typeof value === "object" ? (value as { requestId?: unknown }).requestId : undefined;
    return typeof id === "string" && id.length <= REQUEST_ID_MAX_LENGTH ? id : undefined;
  } catch {
    return undefined;
  }
}

export interface Hub {
  /** Registers the handler of a client action (one per action). */
  handle(action: ClientAction, handler: ActionHandler): void;
  toUser(userId: number, message: ServerMessage): void;
  toAll(message: ServerMessage): void;
  closeSession(sessionId: string): void;
  closeUserSessions(userId: number, keepSessionId?: string): void;
  connectionCount(): number;
  /** Open sockets of one user (the upgrade refuses more than SOCKET_MAX_PER_USER). */
  userConnectionCount(userId: number): number;
  /** Taps every published message (tests and benchmarks). Returns an unsubscribe function. */
  onPublish(listener: (topic: string, message: ServerMessage) => void): () => void;
  attach(server: Server<SocketData>): void;
  websocket: {
    maxPayloadLength: number;
    open(ws: ServerWebSocket<SocketData>): void;
    message(ws: ServerWebSocket<SocketData>, raw: string | Buffer): Promise<void>;
    close(ws: ServerWebSocket<SocketData>): void;
  };
  /** Handles one raw client message as if it came from a socket (used by tests). */
  dispatch(data: SocketData, raw: string, reply: (message: ServerMessage) => void): Promise<void>;
}

export const ALL_TOPIC = "members";
export const userTopic = (userId: number) => `user:${userId}`;

export function createHub(options: { onError?: (error: unknown, action?: string) => void; now?: () => number } = {}): Hub {
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const handlers = new Map<ClientAction, ActionHandler>();
  const sockets = new Set<ServerWebSocket<SocketData>>();
  const listeners = new Set<(topic: string, message: ServerMessage) => void>();
  let server: Server<SocketData> | null = null;

  const publish = (topic: string, message: ServerMessage) => {
    const text = JSON.stringify(message);
    server?.publish(topic, text);
    for (const listener of listeners) listener(topic, message);
  };

  async function dispatch(data: SocketData, raw: string, reply: (message: ServerMessage) => void, close?: () => void) {
    if (raw.length > SOCKET_MAX_MESSAGE_BYTES) return reply(errorMessage("socket.too_large", undefined));
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(raw);
    } catch {
      return reply(errorMessage("socket.bad_json", undefined));
    }
    const parsed = clientMessageSchema.safeParse(parsedJson);
    if (!parsed.success) return reply(errorMessage("socket.bad_action", requestIdOf(raw)));
    const { action, payload, requestId } = parsed.data;
    const handler = handlers.get(action);
    if (!handler) return reply(errorMessage("socket.unsupported", requestId, { action }));
    const user = data.current ? await data.current() : data.user;
    if (!user) {
      reply(errorMessage("auth.required", requestId));
      return close?.();
    }
    if (user.mustSetPassword) return reply(errorMessage("password.must_change", requestId));
    try {
      await handler({ user, sessionId: data.sessionId, requestId, reply }, payload);
    } catch (error) {
      if (error instanceof ActionError) {
        reply({ type: "error", message: error.message, errorKey: error.errorKey, requestId });
      } else {
        options.onError?.(error, action);
        reply(errorMessage("common.unexpected", requestId));
      }
    }
  }

  return {
    handle(action, handler) {
      handlers.set(action, handler);
    },
    toUser: (userId, message) => publish(userTopic(userId), message),
    toAll: (message) => publish(ALL_TOPIC, message),
    closeSession(sessionId) {
      for (const ws of sockets) if (ws.data.sessionId === sessionId) ws.close(4001, "signed out");
    },
    closeUserSessions(userId, keepSessionId) {
      for (const ws of sockets) {
        if (ws.data.user.id === userId && ws.data.sessionId !== keepSessionId) ws.close(4001, "session ended");
      }
    },
    connectionCount: () => sockets.size,
    userConnectionCount(userId) {
      let count = 0;
      for (const ws of sockets) if (ws.data.user.id === userId) count++;
      return count;
    },
    onPublish(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    attach(s) {
      server = s;
    },
    dispatch,
    websocket: {
      // Bun refuses (closes with 1009) a larger frame before buffering it; frames between the
      // message limit and this one are still answered with a readable error.
      maxPayloadLength: SOCKET_MAX_PAYLOAD_BYTES,
      open(ws) {
        // The upgrade checks the count too; this catches upgrades that raced each other.
        let count = 0;
        for (const other of sockets) if (other.data.user.id === ws.data.user.id) count++;
        if (count >= SOCKET_MAX_PER_USER) {
          ws.close(1008, "too many connections");
          return;
        }
        sockets.add(ws);
        ws.subscribe(ALL_TOPIC);
        ws.subscribe(userTopic(ws.data.user.id));
      },
      async message(ws, raw) {
        const reply = (message: ServerMessage) => {
          if (ws.readyState === 1) ws.send(JSON.stringify(message));
        };
        const text = typeof raw === "string" ? raw : raw.toString("utf8");
        const second = Math.floor(now() / 1000);
        if (ws.data.rate?.second !== second) ws.data.rate = { second, count: 0 };
        if (++ws.data.rate.count > SOCKET_ACTIONS_PER_SECOND) return reply(errorMessage("socket.rate_limited", requestIdOf(text)));
        await dispatch(ws.data, text, reply, () => ws.close(4001, "session ended"));
      },
      close(ws) {
        sockets.delete(ws);
      },
    },
  };
}
