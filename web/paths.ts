/** Every route path of the app, in one place. */
export const paths = {
  home: "/",
  login: "/login",
  setup: "/setup",
  book: "/book",
  bookings: "/bookings",
  players: "/players",
  profile: "/profile",
  admin: "/admin",
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
