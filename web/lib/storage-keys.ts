/** Browser storage keys shared by several parts of the app. */

/** Local storage: the welcome overlay has been seen. */
export const HAS_SEEN_WELCOME_KEY = "hasSeenWelcome";

/** Session storage: the setup wizard's step and form values; cleared on finish and on logout. */
export const SETUP_WIZARD_STORAGE_KEY = "teebox.setupWizard";

/** Session storage: the scraper was already asked to run on opening the booking page this session. */
export const BOOK_PAGE_SCRAPE_KEY = "teebox.bookPageScrapeRequested";

/** Local storage: the bookings and requests last seen, for the offline view; cleared on logout. */
export const OFFLINE_SNAPSHOT_KEY = "teebox.offlineSnapshot";

/** Local storage: the admin's UI texts that differ from the defaults, shown before the current ones arrive. */
export const UI_TEXT_STORAGE_KEY = "teebox.uiText";
