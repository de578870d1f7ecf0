/**
 * The first module the binary's entry imports (scripts/build.ts): evaluated before any other, it
 * gives the runtime its options (src/runtime-options.ts) before the server's modules load.
 */
import { restartWithRuntimeOptions } from "./runtime-options.ts";

restartWithRuntimeOptions();
