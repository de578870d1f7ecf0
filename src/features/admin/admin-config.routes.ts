/**
 * /v1/admin/full-config, courses, booking-windows, holidays, booking-rules and
 * frontpage-messages (spec §7 admin calls). Each change is checked with the shared admin rules,
 * audited with the admin's name, and announced to members (`status: updated`).
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../deps.ts";
import {
  checkCourse,
  checkCourseAliases,
  checkHolidayDate,
  checkHolidayName,
  checkMessage,
  checkRule,
  checkWindow,
  type Checked,
} from "../../domain/admin-checks.ts";
import { readJson, readParam } from "../../lib/validate.ts";
import { adminError, announceUpdate, auditAdminChange } from "./admin-support.ts";
import * as config from "./admin-config.service.ts";

const anyBody = z.record(z.string(), z.unknown());
const idParam = z.coerce.number().int().positive();
const courseIdParam = z.string().min(1).max(64);
const dateParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

function valueOf<T>(checked: Checked<T>): T {
  if (!checked.ok) throw adminError(checked.problem.key, 400, checked.problem.context);
  return checked.value;
}

const dbOf = (c: Context<AppEnv>) => c.get("deps").database.db;

/** Audits, tells members, and answers with the changed record (or 204 for a deletion). */
async function finish(c: Context<AppEnv>, action: string, target: string, body: unknown, status: 200 | 201 | 204 = 200) {
  await auditAdminChange(c, action, target);
  announceUpdate(c.get("deps"));
  return status === 204 ? c.body(null, 204) : c.json(body, status);
}

export function createFullConfigRoutes() {
  return new Hono<AppEnv>().get("/", async (c) => c.json(await config.readFullConfig(dbOf(c))));
}

export function createCoursesRoutes() {
  return new Hono<AppEnv>()
    .post("/", async (c) => {
      const body = await readJson(c, anyBody);
      const course = valueOf(checkCourse(body));
      const aliases = valueOf(checkCourseAliases(body.aliases));
      return finish(c, "admin.course.create", course.id, await config.addCourse(dbOf(c), course, aliases ?? []), 201);
    })
    .put("/:id", async (c) => {
      const id = readParam(c, "id", courseIdParam);
      const body = await readJson(c, anyBody);
      if (body.id !== undefined && String(body.id).trim() !== id) throw adminError("admin.courses.error_id_locked");
      const course = valueOf(checkCourse({ ...body, id }));
      const aliases = valueOf(checkCourseAliases(body.aliases));
      return finish(c, "admin.course.update", id, await config.changeCourse(dbOf(c), id, course, aliases));
    })
    .delete("/:id", async (c) => {
      const id = readParam(c, "id", courseIdParam);
      await config.removeCourse(dbOf(c), id);
      return finish(c, "admin.course.delete", id, null, 204);
    });
}

export function createBookingWindowsRoutes() {
  return new Hono<AppEnv>()
    .post("/", async (c) => {
      const input = valueOf(checkWindow(await readJson(c, anyBody)));
      const window = await config.addWindow(dbOf(c), input);
      return finish(c, "admin.window.create", `${window.id} ${window.rule_key}`, window, 201);
    })
    .put("/:id", async (c) => {
      const id = readParam(c, "id", idParam);
      const input = valueOf(checkWindow(await readJson(c, anyBody)));
      const window = await config.changeWindow(dbOf(c), id, input);
      return finish(c, "admin.window.update", `${id} ${window.rule_key}`, window);
    })
    .delete("/:id", async (c) => {
      const id = readParam(c, "id", idParam);
      await config.removeWindow(dbOf(c), id);
      return finish(c, "admin.window.delete", String(id), null, 204);
    });
}

export function createHolidaysRoutes() {
  return new Hono<AppEnv>()
    .post("/", async (c) => {
      const body = await readJson(c, anyBody);
      const date = valueOf(checkHolidayDate(body.date));
      const name = valueOf(checkHolidayName(body.name));
      return finish(c, "admin.holiday.create", date, await config.addHoliday(dbOf(c), { date, name }), 201);
    })
    .put("/:date", async (c) => {
      const date = valueOf(checkHolidayDate(readParam(c, "date", dateParam)));
      const name = valueOf(checkHolidayName((await readJson(c, anyBody)).name));
      return finish(c, "admin.holiday.update", date, await config.renameHoliday(dbOf(c), date, name));
    })
    .delete("/:date", async (c) => {
      const date = valueOf(checkHolidayDate(readParam(c, "date", dateParam)));
      await config.removeHoliday(dbOf(c), date);
      return finish(c, "admin.holiday.delete", date, null, 204);
    });
}

export function createBookingRulesRoutes() {
  return new Hono<AppEnv>()
    .post("/", async (c) => {
      const rule = await config.addRule(dbOf(c), valueOf(checkRule(await readJson(c, anyBody))));
      return finish(c, "admin.rule.create", String(rule.id), rule, 201);
    })
    .put("/:id", async (c) => {
      const id = readParam(c, "id", idParam);
      const rule = await config.changeRule(dbOf(c), id, valueOf(checkRule(await readJson(c, anyBody))));
      return finish(c, "admin.rule.update", String(id), rule);
    })
    .delete("/:id", async (c) => {
      const id = readParam(c, "id", idParam);
      await config.removeRule(dbOf(c), id);
      return finish(c, "admin.rule.delete", String(id), null, 204);
    });
}

export function createFrontpageMessagesRoutes() {
  return new Hono<AppEnv>()
    .post("/", async (c) => {
      const input = valueOf(checkMessage(await readJson(c, anyBody)));
      const message = await config.addMessage(dbOf(c), input, c.get("deps").clock.now());
      return finish(c, "admin.advisory.create", String(message.id), message, 201);
    })
    .put("/:id", async (c) => {
      const id = readParam(c, "id", idParam);
      const input = valueOf(checkMessage(await readJson(c, anyBody)));
      const message = await config.changeMessage(dbOf(c), id, input, c.get("deps").clock.now());
      return finish(c, "admin.advisory.update", String(id), message);
    })
    .delete("/:id", async (c) => {
      const id = readParam(c, "id", idParam);
      await config.removeMessage(dbOf(c), id);
      return finish(c, "admin.advisory.delete", String(id), null, 204);
    });
}
