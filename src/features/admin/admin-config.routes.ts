/**
 * /v1/admin/full-config, courses, booking-windows, holidays, booking-rules and
 * frontpage-messages. Each change is checked with the shared admin rules, audited with the
 * admin's name, and announced to members as the resources it changed.
 */
import type { Context } from "hono";
import type { AppDeps, AppEnv } from "../../deps.ts";
import { checkCourse, checkCourseAliases, checkHolidayDate, checkHolidayName, checkMessage, checkRule, checkWindow, type Checked } from "../../domain/admin-checks.ts";
import { routeGroup } from "../../lib/contract.ts";
import { adminConfigRoutes as routes } from "./admin-config.contract.ts";
import { adminError, announceUpdate, auditAdminChange, type AuditDeps } from "./admin-support.ts";
import * as config from "./admin-config.service.ts";

export type AdminConfigDeps = AuditDeps & Pick<AppDeps, "notifier">;

/** The part of the club's configuration each audited action changes (members reload only what shows it). */
const PART_OF = { course: "courses", window: "windows", holiday: "holidays", rule: "rules", advisory: "announcements" } as const;

function checkedValue<T>(checked: Checked<T>): T {
  if (!checked.ok) throw adminError(checked.problem.key, 400, checked.problem.context);
  return checked.value;
}

export function createAdminConfigRoutes(deps: AdminConfigDeps) {
  const { db } = deps.database;
  /** Audits and tells members what part changed; the handler answers with the changed record (or 204 for a deletion). */
  const changed = async (c: Context<AppEnv>, action: `admin.${keyof typeof PART_OF}.${string}`, target: string) => {
    await auditAdminChange(deps, c, action, target);
    announceUpdate(deps, PART_OF[action.split(".")[1] as keyof typeof PART_OF]);
  };
  return (
    routeGroup()
      .handle(routes.fullConfig, async (c) => c.json(await config.readFullConfig(db), 200))
      // Courses
      .handle(routes.addCourse, async (c) => {
        const body = c.req.valid("json");
        const course = checkedValue(checkCourse(body));
        const aliases = checkedValue(checkCourseAliases(body.aliases));
        const added = await config.addCourse(db, course, aliases ?? []);
        await changed(c, "admin.course.create", course.id);
        return c.json(added, 201);
      })
      .handle(routes.changeCourse, async (c) => {
        const { id } = c.req.valid("param");
        const body = c.req.valid("json");
        if (body.id !== undefined && String(body.id).trim() !== id) throw adminError("admin.courses.error_id_locked");
        const course = checkedValue(checkCourse({ ...body, id }));
        const aliases = checkedValue(checkCourseAliases(body.aliases));
        const saved = await config.changeCourse(db, id, course, aliases);
        await changed(c, "admin.course.update", id);
        return c.json(saved, 200);
      })
      .handle(routes.removeCourse, async (c) => {
        const { id } = c.req.valid("param");
        await config.removeCourse(db, id);
        await changed(c, "admin.course.delete", id);
        return c.body(null, 204);
      })
      // Booking windows
      .handle(routes.addWindow, async (c) => {
        const window = await config.addWindow(db, checkedValue(checkWindow(c.req.valid("json"))));
        await changed(c, "admin.window.create", `${window.id} ${window.rule_key}`);
        return c.json(window, 201);
      })
      .handle(routes.changeWindow, async (c) => {
        const { id } = c.req.valid("param");
        const window = await config.changeWindow(db, id, checkedValue(checkWindow(c.req.valid("json"))));
        await changed(c, "admin.window.update", `${id} ${window.rule_key}`);
        return c.json(window, 200);
      })
      .handle(routes.removeWindow, async (c) => {
        const { id } = c.req.valid("param");
        await config.removeWindow(db, id);
        await changed(c, "admin.window.delete", String(id));
        return c.body(null, 204);
      })
      // Holidays
      .handle(routes.addHoliday, async (c) => {
        const body = c.req.valid("json");
        const date = checkedValue(checkHolidayDate(body.date));
        const name = checkedValue(checkHolidayName(body.name));
        const holiday = await config.addHoliday(db, { date, name });
        await changed(c, "admin.holiday.create", date);
        return c.json(holiday, 201);
      })
      .handle(routes.changeHoliday, async (c) => {
        const date = checkedValue(checkHolidayDate(c.req.valid("param").date));
        const name = checkedValue(checkHolidayName(c.req.valid("json").name));
        const holiday = await config.renameHoliday(db, date, name);
        await changed(c, "admin.holiday.update", date);
        return c.json(holiday, 200);
      })
      .handle(routes.removeHoliday, async (c) => {
        const date = checkedValue(checkHolidayDate(c.req.valid("param").date));
        await config.removeHoliday(db, date);
        await changed(c, "admin.holiday.delete", date);
        return c.body(null, 204);
      })
      // Booking rules
      .handle(routes.addRule, async (c) => {
        const rule = await config.addRule(db, checkedValue(checkRule(c.req.valid("json"))));
        await changed(c, "admin.rule.create", String(rule.id));
        return c.json(rule, 201);
      })
      .handle(routes.changeRule, async (c) => {
        const { id } = c.req.valid("param");
        const rule = await config.changeRule(db, id, checkedValue(checkRule(c.req.valid("json"))));
        await changed(c, "admin.rule.update", String(id));
        return c.json(rule, 200);
      })
      .handle(routes.removeRule, async (c) => {
        const { id } = c.req.valid("param");
        await config.removeRule(db, id);
        await changed(c, "admin.rule.delete", String(id));
        return c.body(null, 204);
      })
      // Front-page messages
      .handle(routes.addMessage, async (c) => {
        const message = await config.addMessage(db, checkedValue(checkMessage(c.req.valid("json"))), deps.clock.now());
        await changed(c, "admin.advisory.create", String(message.id));
        return c.json(message, 201);
      })
      .handle(routes.changeMessage, async (c) => {
        const { id } = c.req.valid("param");
        const message = await config.changeMessage(db, id, checkedValue(checkMessage(c.req.valid("json"))), deps.clock.now());
        await changed(c, "admin.advisory.update", String(id));
        return c.json(message, 200);
      })
      .handle(routes.removeMessage, async (c) => {
        const { id } = c.req.valid("param");
        await config.removeMessage(db, id);
        await changed(c, "admin.advisory.delete", String(id));
        return c.body(null, 204);
      })
  );
}
