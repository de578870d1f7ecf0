/**
 * Everything behind the sign-in page (app-shell.tsx loads it for any screen but a signed-out
 * /login): the router, the main layout and the member pages, the setup wizard, the offline view,
 * the full text catalogue and the live data's schemas. Split per page the build made some twenty
 * small files, and a phone on a slow network pays a round trip for each; as two chunks (what the
 * admin page shares with it, and the rest) the page a member opens first loads a few kilobytes
 * more, and the next page needs nothing from the network. The admin page is a chunk of its own.
 */
import { DEFAULT_UI_TEXT } from "../../src/domain/ui-text/index.ts";
import { provideLiveDataSchemas } from "../lib/live-data-store.ts";
import * as liveDataSchemas from "../lib/live-data-schemas.ts";
import { installDefaultTexts } from "../lib/text.ts";

installDefaultTexts(DEFAULT_UI_TEXT);
provideLiveDataSchemas(liveDataSchemas);

export { AppRouter } from "../app-router.tsx";
