/** /v1/admin/app-settings (GET: settings and uiText; PUT: the full settings) and PUT /v1/admin/ui-text. */
import type { AppDeps } from "../../deps.ts";
import { checkReleaseTime, mergeSettingsUpdate } from "../../domain/settings.ts";
import { routeGroup } from "../../lib/contract.ts";
import { badRequest } from "../../lib/errors.ts";
import { readSettings } from "../../services/settings.service.ts";
import { adminRoutes, MAX_UI_TEXT_KEYS, uiTextMapSchema } from "./admin.contract.ts";
import { adminError, auditAdminChange, type AuditDeps } from "./admin-support.ts";
import { readAdminSettings, replaceUiText, saveSettings, type SettingsDeps } from "./admin-settings.service.ts";

export function createAppSettingsRoutes(deps: SettingsDeps & AuditDeps) {
  return routeGroup()
    .handle(adminRoutes.settings, async (c) => c.json(await readAdminSettings(deps), 200))
    .handle(adminRoutes.saveSettings, async (c) => {
      const body = c.req.valid("json");
      // The release time is checked first so its message is the one its own check gives.
      const problem = checkReleaseTime(typeof body.release_time === "string" ? body.release_time : "");
      if (problem) throw badRequest(problem.message, problem.errorKey);
      const merged = mergeSettingsUpdate(body, await readSettings(deps.database.db));
      if (!merged.ok) throw badRequest(merged.problem.message, merged.problem.errorKey);
      const settings = merged.value;
      const result = await saveSettings(deps, settings);
      await auditAdminChange(
        deps,
        c,
        "admin.settings.update",
        null,
        `release ${settings.release_time} -${settings.release_days_before}d, log ${settings.log_level}, moved ${result.movedRequests}`,
      );
      return c.json(result, 200);
    });
}

export function createUiTextRoutes(deps: Pick<AppDeps, "database" | "notifier"> & AuditDeps) {
  return routeGroup().handle(adminRoutes.saveUiText, async (c) => {
    const parsed = uiTextMapSchema.safeParse(c.req.valid("json"));
    if (!parsed.success || Object.keys(parsed.data).length > MAX_UI_TEXT_KEYS) throw adminError("admin.ui_text.error_invalid");
    await replaceUiText(deps, parsed.data);
    await auditAdminChange(deps, c, "admin.ui_text.update", null, `${Object.keys(parsed.data).length} texts`);
    return c.json({ uiText: parsed.data }, 200);
  });
}
