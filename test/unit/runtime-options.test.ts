/**
 * The binary's runtime options (decisions 208, 215): which of them a start still has to set. That the
 * binary restarts itself with them, in place, is checked on the built binary (test/e2e/binary.e2e.test.ts).
 */
import { expect, test } from "bun:test";
import { missingRuntimeOptions, RUNTIME_OPTIONS } from "../../src/runtime-options.ts";

test("a start without the options has all of them to set", () => {
  expect(missingRuntimeOptions({ PATH: "/usr/bin" })).toEqual({ ...RUNTIME_OPTIONS });
  expect(RUNTIME_OPTIONS).toEqual({ BUN_JSC_useFTLJIT: "0", BUN_JSC_heapGrowthMaxIncrease: "0.5", BUN_JSC_smallHeapGrowthFactor: "1.5" });
});

test("an option already in the environment is left as the operator set it, so the restart happens once", () => {
  const turnedBack = Object.fromEntries(Object.keys(RUNTIME_OPTIONS).map((name) => [name, "1"]));
  expect(missingRuntimeOptions(turnedBack)).toEqual({});
  expect(missingRuntimeOptions({ ...RUNTIME_OPTIONS })).toEqual({});
});
