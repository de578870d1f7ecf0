/** The contracts of the live availability data: tee times, bookable dates, rules, advisories (decision 170). */
import { answer, defineRoute } from "../../lib/contract.ts";
import { advisoriesResponseSchema, datesResponseSchema, rulesResponseSchema, teeTimesResponseSchema } from "./availability.schemas.ts";

const tags = ["Availability"];

// They take no input: the cache-busting query the web app adds is ignored.
export const availabilityRoutes = {
  teeTimes: defineRoute({
    access: "member",
    method: "get",
    path: "/tee-times",
    tags,
    summary: "The club's tee sheets as last read, from today on, with when the last read ended",
    responses: { 200: answer(teeTimesResponseSchema, "The sheets by date, course order and time") },
  }),
  dates: defineRoute({
    access: "member",
    method: "get",
    path: "/system/dates",
    tags,
    summary: "The dates a member may book, as the app settings offer them",
    responses: { 200: answer(datesResponseSchema, "The dates") },
  }),
  rules: defineRoute({
    access: "member",
    method: "get",
    path: "/system/rules",
    tags,
    summary: "Everything the booking form checks with: rules, holidays, courses, settings and the allowed windows",
    responses: { 200: answer(rulesResponseSchema, "The rules bundle") },
  }),
  advisories: defineRoute({
    access: "member",
    method: "get",
    path: "/advisories",
    tags,
    summary: "The club's advisories as read from its site, and the admins' active front-page messages",
    responses: { 200: answer(advisoriesResponseSchema, "Both lists") },
  }),
};
