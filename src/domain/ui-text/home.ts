/** UI text of the home page and the live-data refresh control. */
export const homeText = {
  "home.title": "Home",
  "home.loading": "Loading your tee times and news…",
  "home.next_up.title": "Next Up",
  "home.next_up.players": "With {names}",
  "home.next_up.no_other_players": "Just you so far",
  "home.next_up.view_details": "View Details",
  "home.status.confirmed": "Confirmed",
  "home.status.pending": "Pending",
  "home.status.failed": "Failed",
  "home.announcements.title": "Announcements",
  "home.advisories.title": "Club Advisories",
  "home.refresh": "Refresh",
  "home.refresh_label": "Refresh tee times and bookings",
} as const satisfies Record<string, string>;
