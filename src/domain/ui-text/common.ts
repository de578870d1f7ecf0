/**
 * UI text shared by the whole app: layout, tabs, toasts and generic errors.
 * The brand title is not here on purpose: spec §1 makes it a fixed string, not editable text.
 */
export const BRAND_TITLE = "Teebox";

export const commonText = {
  "layout.welcome": "Welcome, {name}",
  "layout.last_updated": "Last updated {time}",
  "layout.logout": "Log out",
  "layout.main_navigation": "Main navigation",
  "layout.welcome_overlay.title": "Welcome to Teebox",
  "layout.welcome_overlay.body":
    "Book tee times at Southwoods, follow your confirmed bookings and pending requests, and keep your list of regular players in one place.",
  "layout.welcome_overlay.dismiss": "Get started",
  "tabs.home": "Home",
  "tabs.book": "Book",
  "tabs.bookings": "Bookings",
  "tabs.players": "Players",
  "tabs.profile": "Profile",
  "tabs.admin": "Admin",
  "tabs.more": "More",
  "tabs.bookings_badge": "{count} upcoming",
  "common.loading": "Loading…",
  "common.coming_soon": "This page is coming soon.",
  "common.close": "Close",
  "common.cancel": "Cancel",
  "common.save": "Save",
  "toast.dismiss": "Dismiss",
  "toast.data_refreshed": "Data refreshed",
  "error.title": "Something went wrong.",
  "error.body": "An unexpected error has occurred. Please try refreshing the page.",
  "error.reload": "Refresh page",
  "not_found.title": "Page not found",
  "not_found.body": "There is no page at this address.",
  "not_found.home_link": "Go to the home page",
  "request.unknown_host": "This server does not answer for that host name.",
  "request.rate_limited": "Too many requests. Please wait a minute.",
  "socket.rate_limited": "Too many messages at once. Please wait a moment and try again.",
  "socket.too_many": "Too many Teebox tabs are open. Close one and try again.",
} as const satisfies Record<string, string>;
