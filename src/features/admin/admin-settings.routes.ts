/** /v1/admin/app-settings (GET: settings and uiText; PUT: the full settings) and PUT /v1/admin/ui-text. */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../deps.ts";
import { checkReleaseTime, mergeSettingsUpdate } from "../../domain/settings.ts";
import { readSettings } from "../../services/settings.service.ts";
import { badRequest } from "../../lib/errors.ts";
import { readJson } from "../../lib/validate.ts";
import { adminError, auditAdminChange } from "./admin-support.ts";
import { readAdminSettings, replaceUiText, saveSettings } from "./admin-settings.service.ts";

export const MAX_UI_TEXT_KEYS = 5000;
export const MAX_UI_TEXT_KEY_LENGTH = 200;
export const MAX_UI_TEXT_LENGTH = 2000;

const uiTextKeySchema = z
  .string()
  .max(MAX_UI_TEXT_KEY_LENGTH)
  .refine((key) => key.trim() !== "" && key.trim() === key && !/[\u0000-\u001f]/.test(key));
const uiTextMapSchema = z.record(uiTextKeySchema, z.string().max(MAX_UI_TEXT_LENGTH));

export function createAppSettingsRoutes() {
  return new Hono<AppEnv>()
    .get("/", async (c) => c.json(await readAdminSettings(c.get("deps"))))
    .put("/", async (c) => {
      const body = await readJson(c, z.record(z.string(), z.unknown()));
      // The release time is checked first so its message is the spec's own (spec §5).
      const problem = checkReleaseTime(typeof body.release_time === "string" ? body.release_time : "");
      if (problem) throw badRequest(problem.message, problem.errorKey);
      const merged = mergeSettingsUpdate(body, await readSettings(c.get("deps").database.db));
      if (!merged.ok) throw badRequest(merged.problem.message, merged.problem.errorKey);
      const settings = merged.value;
      const result = await saveSettings(c.get("deps"), settings);
      await auditAdminChange(c, "admin.settings.update", null, `release ${settings.release_time} -${settings.release_days_before}d, log ${settings.log_level}, moved ${result.movedRequests}`);
      return c.json(result);
    });
}

export function createUiTextRoutes() {
  return new Hono<AppEnv>().put("/", async (c) => {
    const body = await readJson(c, z.unknown());
    const parsed = uiTextMapSchema.safeParse(body);
    if (!parsed.success || Object.keys(parsed.data).length > MAX_UI_TEXT_KEYS) throw adminError("admin.ui_text.error_invalid");
    await replaceUiText(c.get("deps"), parsed.data);
    await auditAdminChange(c, "admin.ui_text.update", null, `${Object.keys(parsed.data).length} texts`);
    return c.json({ uiText: parsed.data });
  });
}
