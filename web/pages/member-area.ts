/**
 * The main layout and the pages inside it, in one chunk (router.tsx loads it for any of them).
 * Split per page they made some twenty small files, and a phone on a slow network pays a round
 * trip for each; together they are a few kilobytes more for the page a member opens first, and
 * switching tabs then needs nothing from the network. The admin page stays apart (admins only).
 */
export { default as MainLayout } from "../layout/main-layout.tsx";
export { default as HomePage } from "./home-page.tsx";
export { default as BookPage } from "./book-page.tsx";
export { default as BookingsPage } from "./bookings-page.tsx";
export { default as PlayersPage } from "./players-page.tsx";
export { default as ProfilePage } from "./profile-page.tsx";
export { default as NotFoundPage } from "./not-found-page.tsx";
