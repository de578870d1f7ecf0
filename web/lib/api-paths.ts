/**
 * Every `/v1` path the web app calls (spec §7), named once. Path parameters are encoded here, so
 * callers pass raw ids and dates.
 */
const enc = encodeURIComponent;

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
    requestStory: (id: number) => `/v1/my/requests/${id}/story`,
    bookingStory: (bookingId: string) => `/v1/my/bookings/${enc(bookingId)}/story`,
    calendar: "/v1/my/calendar",
    watches: "/v1/my/watches",
    cancelWatch: (id: number) => `/v1/my/watches/${id}/cancel`,
    checkRequests: "/v1/my/requests/check",
  },
  editBooking: (bookingId: string) => `/v1/bookings/${enc(bookingId)}/edit`,
  admin: {
    users: "/v1/admin/users",
    user: (id: number) => `/v1/admin/users/${id}`,
    systemStats: "/v1/admin/system-stats",
    systemHistory: "/v1/admin/system-stats/history",
    clubCheck: "/v1/admin/club-check",
    mailOutbox: "/v1/admin/mail-outbox",
    fullConfig: "/v1/admin/full-config",
    appSettings: "/v1/admin/app-settings",
    uiText: "/v1/admin/ui-text",
    holidays: "/v1/admin/holidays",
    holiday: (date: string) => `/v1/admin/holidays/${enc(date)}`,
    bookingRules: "/v1/admin/booking-rules",
    bookingRule: (id: number) => `/v1/admin/booking-rules/${id}`,
    courses: "/v1/admin/courses",
    course: (id: string) => `/v1/admin/courses/${enc(id)}`,
    bookingWindows: "/v1/admin/booking-windows",
    bookingWindow: (id: number) => `/v1/admin/booking-windows/${id}`,
    frontpageMessages: "/v1/admin/frontpage-messages",
    frontpageMessage: (id: number) => `/v1/admin/frontpage-messages/${id}`,
  },
} as const;
