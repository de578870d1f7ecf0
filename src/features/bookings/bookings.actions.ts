/**
 * The socket actions of bookings: SUBMIT_BOOKING_REQUEST, CANCEL_REQUEST and
 * CANCEL_CONFIRMED_BOOKING. Each answers the member's socket (a result or an error), and every
 * change tells all of the member's tabs to reload.
 */
import type { AppDeps } from "../../deps.ts";
import { AppError } from "../../lib/errors.ts";
import { ActionError, parseActionPayload, type ActionContext } from "../../realtime/hub.ts";
import { cancelBookingPayloadSchema, cancelRequestPayloadSchema } from "./bookings.schemas.ts";
import { cancelBooking, cancelRequest, submitBookingRequest } from "./bookings.service.ts";

/** Service errors (AppError) reach the member as socket `error` messages with the same text and key. */
async function answering(task: () => Promise<void>): Promise<void> {
  try {
    await task();
  } catch (error) {
    if (error instanceof AppError) throw new ActionError(error.message, error.errorKey);
    throw error;
  }
}

/** Reads the member's club bookings shortly after an action, so the list matches the club. */
export function syncMemberSoon(deps: Pick<AppDeps, "bookingsSync" | "logger">, userId: number): void {
  void deps.bookingsSync.syncMember(userId).catch((error) => deps.logger.warn("bookings sync after an action failed", { userId, error }));
}

export function registerBookingActions(deps: AppDeps): void {
  deps.hub.handle("SUBMIT_BOOKING_REQUEST", (ctx: ActionContext, payload) =>
    answering(async () => {
      const result = await submitBookingRequest(deps, ctx.user, payload);
      const { status, details, reason } = result;
      ctx.reply({ type: "submissionResult", status, details, ...(reason ? { reason } : {}), requestId: ctx.requestId });
    }),
  );

  deps.hub.handle("CANCEL_REQUEST", (ctx, payload) =>
    answering(async () => {
      const { id } = parseActionPayload(cancelRequestPayloadSchema, payload);
      const cancelled = await cancelRequest(deps, ctx.user.id, id);
      ctx.reply({ type: "ack", action: "CANCEL_REQUEST", requestId: ctx.requestId });
      deps.notifier.publish(cancelled);
    }),
  );

  deps.hub.handle("CANCEL_CONFIRMED_BOOKING", (ctx, payload) =>
    answering(async () => {
      const { bookingId } = parseActionPayload(cancelBookingPayloadSchema, payload);
      const cancelled = await cancelBooking(deps, ctx.user.id, bookingId);
      ctx.reply({ type: "ack", action: "CANCEL_CONFIRMED_BOOKING", requestId: ctx.requestId });
      deps.notifier.publish(cancelled);
      syncMemberSoon(deps, ctx.user.id);
    }),
  );
}
