/**
 * The contracts of the admin's configuration tables: courses, booking windows, holidays, booking
 * rules and front-page messages (decision 170). Each body is documented with its fields and checked
 * by the admin area's rules (src/domain/admin-checks.ts), which the admin pages run before sending.
 */
import { z } from "@hono/zod-openapi";
import { holidaySchema, bookingRuleSchema } from "../../domain/record-schemas.ts";
import { answer, defineRoute, noContent, refusals, ruledBody } from "../../lib/contract.ts";
import { adminCourseSchema, bookingWindowSchema, frontpageMessageSchema, fullConfigSchema } from "./admin.schemas.ts";

const RULES = "the admin area's rules (src/domain/admin-checks.ts)";
const hhmm = () => z.string().openapi({ example: "06:00" });
const day = z.number().int().min(1).max(7);

const courseBody = z.object({
  id: z.string().openapi({ description: "Letters, digits, - and _; fixed once made" }),
  name: z.string(),
  days_active: z.array(day).openapi({ description: "ISO days of the week, Monday 1" }),
  aliases: z.array(z.string()).optional().openapi({ description: "Other names the club's pages use for the course; absent keeps the stored ones" }),
});
const windowBody = z.object({ rule_key: z.string().openapi({ example: "WEEKEND" }), start_time: hhmm(), end_time: hhmm() });
const holidayBody = z.object({ date: z.string().openapi({ example: "2026-12-25" }), name: z.string().nullable().optional() });
const holidayNameBody = holidayBody.pick({ name: true });
const ruleBody = z.object({
  priority: z.number().int(),
  days_of_week: z.array(day),
  applies_on_holidays: z.boolean(),
  start_time: hhmm(),
  end_time: hhmm(),
  min_players: z.number().int().nullable(),
  max_players: z.number().int().nullable(),
  max_guests: z.number().int().nullable(),
});
const messageBody = z.object({ title: z.string(), content: z.string(), is_active: z.boolean(), eventDate: z.string().nullable() });

const idParams = z.object({ id: z.coerce.number().int().positive() });
const courseIdParams = z.object({ id: z.string().min(1).max(64) });
const dateParams = z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });

const tags = ["Admin: configuration"];

export const adminConfigRoutes = {
  fullConfig: defineRoute({
    access: "admin",
    method: "get",
    path: "/admin/full-config",
    tags,
    summary: "Every configuration table at once: courses, windows, front-page messages, holidays, rules",
    responses: { 200: answer(fullConfigSchema, "The tables") },
  }),
  addCourse: defineRoute({
    access: "admin",
    method: "post",
    path: "/admin/courses",
    tags,
    summary: "Add a course",
    request: { body: ruledBody(courseBody, RULES) },
    responses: { 201: answer(adminCourseSchema, "The new course") },
  }),
  changeCourse: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/courses/{id}",
    tags,
    summary: "Change a course",
    request: { params: courseIdParams, body: ruledBody(courseBody, RULES) },
    responses: { 200: answer(adminCourseSchema, "The course as saved"), ...refusals(404) },
  }),
  removeCourse: defineRoute({
    access: "admin",
    method: "delete",
    path: "/admin/courses/{id}",
    tags,
    summary: "Delete a course",
    request: { params: courseIdParams },
    responses: { 204: noContent("Deleted"), ...refusals(404) },
  }),
  addWindow: defineRoute({
    access: "admin",
    method: "post",
    path: "/admin/booking-windows",
    tags,
    summary: "Add a booking window",
    request: { body: ruledBody(windowBody, RULES) },
    responses: { 201: answer(bookingWindowSchema, "The new booking window") },
  }),
  changeWindow: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/booking-windows/{id}",
    tags,
    summary: "Change a booking window",
    request: { params: idParams, body: ruledBody(windowBody, RULES) },
    responses: { 200: answer(bookingWindowSchema, "The booking window as saved"), ...refusals(404) },
  }),
  removeWindow: defineRoute({
    access: "admin",
    method: "delete",
    path: "/admin/booking-windows/{id}",
    tags,
    summary: "Delete a booking window",
    request: { params: idParams },
    responses: { 204: noContent("Deleted"), ...refusals(404) },
  }),
  addHoliday: defineRoute({
    access: "admin",
    method: "post",
    path: "/admin/holidays",
    tags,
    summary: "Add a holiday",
    request: { body: ruledBody(holidayBody, RULES) },
    responses: { 201: answer(holidaySchema, "The new holiday") },
  }),
  changeHoliday: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/holidays/{date}",
    tags,
    summary: "Rename a holiday (its date is its key)",
    request: { params: dateParams, body: ruledBody(holidayNameBody, RULES) },
    responses: { 200: answer(holidaySchema, "The holiday as saved"), ...refusals(404) },
  }),
  removeHoliday: defineRoute({
    access: "admin",
    method: "delete",
    path: "/admin/holidays/{date}",
    tags,
    summary: "Delete a holiday",
    request: { params: dateParams },
    responses: { 204: noContent("Deleted"), ...refusals(404) },
  }),
  addRule: defineRoute({
    access: "admin",
    method: "post",
    path: "/admin/booking-rules",
    tags,
    summary: "Add a booking rule",
    request: { body: ruledBody(ruleBody, RULES) },
    responses: { 201: answer(bookingRuleSchema, "The new booking rule") },
  }),
  changeRule: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/booking-rules/{id}",
    tags,
    summary: "Change a booking rule",
    request: { params: idParams, body: ruledBody(ruleBody, RULES) },
    responses: { 200: answer(bookingRuleSchema, "The booking rule as saved"), ...refusals(404) },
  }),
  removeRule: defineRoute({
    access: "admin",
    method: "delete",
    path: "/admin/booking-rules/{id}",
    tags,
    summary: "Delete a booking rule",
    request: { params: idParams },
    responses: { 204: noContent("Deleted"), ...refusals(404) },
  }),
  addMessage: defineRoute({
    access: "admin",
    method: "post",
    path: "/admin/frontpage-messages",
    tags,
    summary: "Add a front-page message",
    request: { body: ruledBody(messageBody, RULES) },
    responses: { 201: answer(frontpageMessageSchema, "The new front-page message") },
  }),
  changeMessage: defineRoute({
    access: "admin",
    method: "put",
    path: "/admin/frontpage-messages/{id}",
    tags,
    summary: "Change a front-page message",
    request: { params: idParams, body: ruledBody(messageBody, RULES) },
    responses: { 200: answer(frontpageMessageSchema, "The front-page message as saved"), ...refusals(404) },
  }),
  removeMessage: defineRoute({
    access: "admin",
    method: "delete",
    path: "/admin/frontpage-messages/{id}",
    tags,
    summary: "Delete a front-page message",
    request: { params: idParams },
    responses: { 204: noContent("Deleted"), ...refusals(404) },
  }),
};
