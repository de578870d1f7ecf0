/**
 * Every `/v1` path the web app calls, named once. Path parameters are encoded here, so callers
 * pass raw ids and dates. Each path with a parameter is typed by its route's contract
 * (web/lib/api-contracts.ts): a path the server no longer serves fails the type check.
 */
import type { PathOf, RouteAt } from "./api-contracts.ts";

const enc = encodeURIComponent;

/** The type of a contract's path with a parameter, e.g. `/v1/my/watches/${string}/cancel`. */
type Path<Template extends string, M extends "GET" | "POST" | "PUT" | "DELETE"> = PathOf<RouteAt<Template, M>>;

export const apiPaths = {
  auth: {
    login: "/v1/auth/login",
    logout: "/v1/auth/logout",
    status: "/v1/auth/status",
  },
  system: {
    rules: "/v1/system/rules",
    dates: "/v1/system/dates",
    club: "/v1/system/club",
  },
  teeTimes: "/v1/tee-times",
  advisories: "/v1/advisories",
  formOptions: "/v1/form-options",
  uiText: "/v1/ui-text",
  clientLog: "/v1/client/log",
  socket: "/v1/ws",
  my: {
    bookings: "/v1/my/bookings",
    requests: "/v1/my/requests",
    players: "/v1/my/players",
    profile: "/v1/my/profile",
    changePassword: "/v1/my/user/change-password",
    setPassword: "/v1/my/user/set-password",
    verifyCredentials: "/v1/my/verify-credentials",
    notifications: "/v1/my/notifications",
    markNotificationsRead: "/v1/my/notifications/read",
    notificationSettings: "/v1/my/notification-settings",
    push: "/v1/my/push",
    pushDevices: "/v1/my/push/devices",
    removePushDevice: "/v1/my/push/devices/remove",
    requestStory: (id: number): Path<"/v1/my/requests/{id}/story", "GET"> => `/v1/my/requests/${id}/story`,
    bookingStory: (bookingId: string): Path<"/v1/my/bookings/{bookingId}/story", "GET"> => `/v1/my/bookings/${enc(bookingId)}/story`,
    calendar: "/v1/my/calendar",
    watches: "/v1/my/watches",
    cancelWatch: (id: number): Path<"/v1/my/watches/{id}/cancel", "POST"> => `/v1/my/watches/${id}/cancel`,
    checkRequests: "/v1/my/requests/check",
    series: "/v1/my/series",
    oneSeries: (id: number): Path<"/v1/my/series/{id}", "PUT"> => `/v1/my/series/${id}`,
    changeOccurrence: (id: number, date: string): Path<"/v1/my/series/{id}/occurrences/{date}/change", "POST"> => `/v1/my/series/${id}/occurrences/${enc(date)}/change`,
    endSeries: (id: number): Path<"/v1/my/series/{id}/end", "POST"> => `/v1/my/series/${id}/end`,
    invitations: "/v1/my/invitations",
    answerInvitation: (id: number): Path<"/v1/my/invitations/{id}/answer", "POST"> => `/v1/my/invitations/${id}/answer`,
    invitationSettings: "/v1/my/invitations/settings",
    partnerOverlaps: "/v1/my/partners/overlaps",
    skipOccurrence: (id: number, date: string): Path<"/v1/my/series/{id}/occurrences/{date}/skip", "POST"> => `/v1/my/series/${id}/occurrences/${enc(date)}/skip`,
  },
  editBooking: (bookingId: string): Path<"/v1/bookings/{bookingId}/edit", "POST"> => `/v1/bookings/${enc(bookingId)}/edit`,
  admin: {
    users: "/v1/admin/users",
    user: (id: number): Path<"/v1/admin/users/{id}", "PUT"> => `/v1/admin/users/${id}`,
    systemStats: "/v1/admin/system-stats",
    systemHistory: "/v1/admin/system-stats/history",
    clubCheck: "/v1/admin/club-check",
    mailOutbox: "/v1/admin/mail-outbox",
    fullConfig: "/v1/admin/full-config",
    appSettings: "/v1/admin/app-settings",
    uiText: "/v1/admin/ui-text",
    holidays: "/v1/admin/holidays",
    holiday: (date: string): Path<"/v1/admin/holidays/{date}", "PUT"> => `/v1/admin/holidays/${enc(date)}`,
    bookingRules: "/v1/admin/booking-rules",
    bookingRule: (id: number): Path<"/v1/admin/booking-rules/{id}", "PUT"> => `/v1/admin/booking-rules/${id}`,
    courses: "/v1/admin/courses",
    course: (id: string): Path<"/v1/admin/courses/{id}", "PUT"> => `/v1/admin/courses/${enc(id)}`,
    bookingWindows: "/v1/admin/booking-windows",
    bookingWindow: (id: number): Path<"/v1/admin/booking-windows/{id}", "PUT"> => `/v1/admin/booking-windows/${id}`,
    frontpageMessages: "/v1/admin/frontpage-messages",
    openapi: "/v1/openapi.json",
    frontpageMessage: (id: number): Path<"/v1/admin/frontpage-messages/{id}", "PUT"> => `/v1/admin/frontpage-messages/${id}`,
  },
} as const;
