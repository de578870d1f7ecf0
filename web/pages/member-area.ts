/**
 * Everything behind the sign-in page, in one chunk (router.tsx loads it for any of these routes):
 * the main layout and the member pages, the setup wizard, the offline view, the full text
 * catalogue and the live data's schemas. Split per page the build made some twenty small files,
 * and a phone on a slow network pays a round trip for each; together they are a few kilobytes
 * more for the page a member opens first, and the next page needs nothing from the network.
 * The admin page is a chunk of its own on top of this one (admin-page.tsx).
 */
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { provideLiveDataSchemas } from "../lib/live-data-store.ts";
import * as liveDataSchemas from "../lib/live-data-schemas.ts";
import { installDefaultTexts } from "../lib/text.ts";

installDefaultTexts(DEFAULT_UI_TEXT);
provideLiveDataSchemas(liveDataSchemas);

export { default as MainLayout } from "../layout/main-layout.tsx";
export { default as HomePage } from "./home-page.tsx";
export { default as BookPage } from "./book-page.tsx";
export { default as BookingsPage } from "./bookings-page.tsx";
export { default as PlayersPage } from "./players-page.tsx";
export { default as ProfilePage } from "./profile-page.tsx";
export { default as SetupPage } from "./setup-page.tsx";
export { default as NotFoundPage } from "./not-found-page.tsx";
export { default as OfflineView } from "../components/offline-view.tsx";
