/**
 * The realtime hub: upgrades /v1/ws for signed-in users from our own origin, keeps one topic per
 * user and one for all members, dispatches client actions to the features that handle them, and
 * publishes server messages. It only publishes what services tell it.
 */
import type { Server, ServerWebSocket } from "bun";
import type { SessionUser } from "../domain/session-user.ts";
import type { z } from "zod";
import { describeIssue } from "../lib/validate.ts";
import { clientMessageSchema, type ClientAction, type ServerMessage } from "./messages.ts";

export interface SocketData {
  user: SessionUser;
  sessionId: string;
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
  constructor(message: string, readonly errorKey?: string) {
    super(message);
  }
}

/** Validates an action's payload; a bad one is answered to the member as an `error` message. */
export function parseActionPayload<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> {
  const result = schema.safeParse(payload);
  if (!result.success) throw new ActionError(describeIssue(result.error), "validation.invalid");
  return result.data;
}

export interface Hub {
  /** Registers the handler of a client action (one per action). */
  handle(action: ClientAction, handler: ActionHandler): void;
  toUser(userId: number, message: ServerMessage): void;
  toAll(message: ServerMessage): void;
  closeSession(sessionId: string): void;
  closeUserSessions(userId: number, keepSessionId?: string): void;
  connectionCount(): number;
  /** Taps every published message (tests and benchmarks). Returns an unsubscribe function. */
  onPublish(listener: (topic: string, message: ServerMessage) => void): () => void;
  attach(server: Server<SocketData>): void;
  websocket: {
    open(ws: ServerWebSocket<SocketData>): void;
    message(ws: ServerWebSocket<SocketData>, raw: string | Buffer): Promise<void>;
    close(ws: ServerWebSocket<SocketData>): void;
  };
  /** Handles one raw client message as if it came from a socket (used by tests). */
  dispatch(data: SocketData, raw: string, reply: (message: ServerMessage) => void): Promise<void>;
}

export const ALL_TOPIC = "members";
export const userTopic = (userId: number) => `user:${userId}`;
const MAX_MESSAGE_BYTES = 64 * 1024;

export function createHub(options: { onError?: (error: unknown, action?: string) => void } = {}): Hub {
  const handlers = new Map<ClientAction, ActionHandler>();
  const sockets = new Set<ServerWebSocket<SocketData>>();
  const listeners = new Set<(topic: string, message: ServerMessage) => void>();
  let server: Server<SocketData> | null = null;

  const publish = (topic: string, message: ServerMessage) => {
    const text = JSON.stringify(message);
    server?.publish(topic, text);
    for (const listener of listeners) listener(topic, message);
  };

  async function dispatch(data: SocketData, raw: string, reply: (message: ServerMessage) => void) {
    if (raw.length > MAX_MESSAGE_BYTES) {
      return reply({ type: "error", message: "Message too large.", errorKey: "socket.too_large" });
    }
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(raw);
    } catch {
      return reply({ type: "error", message: "Messages must be JSON.", errorKey: "socket.bad_json" });
    }
    const parsed = clientMessageSchema.safeParse(parsedJson);
    if (!parsed.success) {
      return reply({ type: "error", message: "Unknown or malformed action.", errorKey: "socket.bad_action" });
    }
    const { action, payload, requestId } = parsed.data;
    const handler = handlers.get(action);
    if (!handler) {
      return reply({ type: "error", message: `${action} is not available yet.`, errorKey: "socket.unsupported", requestId });
    }
    try {
      await handler({ user: data.user, sessionId: data.sessionId, requestId, reply }, payload);
    } catch (error) {
      if (error instanceof ActionError) {
        reply({ type: "error", message: error.message, errorKey: error.errorKey, requestId });
      } else {
        options.onError?.(error, action);
        reply({ type: "error", message: "Something went wrong. Please try again.", errorKey: "common.unexpected", requestId });
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
    onPublish(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    attach(s) {
      server = s;
    },
    dispatch,
    websocket: {
      open(ws) {
        sockets.add(ws);
        ws.subscribe(ALL_TOPIC);
        ws.subscribe(userTopic(ws.data.user.id));
      },
      async message(ws, raw) {
        const text = typeof raw === "string" ? raw : raw.toString("utf8");
        await dispatch(ws.data, text, (message) => {
          if (ws.readyState === 1) ws.send(JSON.stringify(message));
        });
      },
      close(ws) {
        sockets.delete(ws);
      },
    },
  };
}
