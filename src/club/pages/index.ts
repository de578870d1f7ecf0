export { parseLoginPage, isLoginPage, type LoginPage } from "./login-page.ts";
export { parseHomePage, type HomePage } from "./home-page.ts";
export { parseTeeSheetPage } from "./tee-sheet-page.ts";
export { parseBookingsPage } from "./bookings-page.ts";
export { parseAdvisoriesPage } from "./advisories-page.ts";
export { parseBookingResultPage, parseNotFoundMessage, refusalKindOf, type BookingResultPage } from "./booking-result-page.ts";
