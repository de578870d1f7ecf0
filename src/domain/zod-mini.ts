/**
 * zod/mini for the schemas the web app checks answers with. When a schema first parses, zod probes
 * whether it may compile code (`new Function`); the app's content security policy forbids that on
 * purpose, so in a browser the probe only logs a policy violation. There zod is told up front to
 * parse without compiling; the server keeps zod's compiled parsing.
 */
import * as z from "zod/mini";

if (typeof document !== "undefined") z.config({ jitless: true });

export * from "zod/mini";
