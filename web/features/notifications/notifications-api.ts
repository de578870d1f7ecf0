/** The notification calls: a page of the member's list, and marking read. */
import { api, getJson, withCacheBuster } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import {
  markReadResponseSchema,
  notificationsResponseSchema,
  type NotificationItem,
  type NotificationsResponse,
} from "../../../src/features/notifications/notifications-responses.schemas.ts";

export type { NotificationItem, NotificationsResponse };

export const notificationsApi = {
  /** The newest notifications, or those older than id `before`. */
  page: (before?: number): Promise<NotificationsResponse> =>
    getJson(withCacheBuster(before === undefined ? apiPaths.my.notifications : `${apiPaths.my.notifications}?before=${before}`), notificationsResponseSchema),
  markRead: (which: { all: true } | { ids: number[] }): Promise<{ unread: number }> => api.postFor(apiPaths.my.markNotificationsRead, which, markReadResponseSchema),
};
