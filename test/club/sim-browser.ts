/** A tiny cookie-keeping "browser" that drives the demo club's Hono app in-process. */
import type { ClubSim } from "../../src/club-sim/index.ts";

export interface SimPage {
  status: number;
  location: string | null;
  html: string;
  date: string | null;
}

export class SimBrowser {
  private readonly cookies = new Map<string, string>();
  csrf = "";

  constructor(private readonly sim: ClubSim) {}

  async get(path: string): Promise<SimPage> {
    return this.send(path, "GET");
  }

  async post(path: string, form: Record<string, string>): Promise<SimPage> {
    return this.send(path, "POST", form);
  }

  async send(path: string, method: string, form?: Record<string, string>): Promise<SimPage> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    const response = await this.sim.app.request(path, { method, headers, body: form ? new URLSearchParams(form).toString() : undefined });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      if (value && !/max-age=0/i.test(cookie)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return { status: response.status, location: response.headers.get("location"), html: await response.text(), date: response.headers.get("date") };
  }

  async login(email: string, password: string): Promise<SimPage> {
    const form = await this.get("/login");
    const token = /name="_csrf" value="([^"]+)"/.exec(form.html)?.[1] ?? "";
    const answer = await this.post("/login", { _csrf: token, email, password });
    if (answer.status === 302) {
      const home = await this.get("/members/home");
      this.csrf = /name="csrf-token" content="([^"]+)"/.exec(home.html)?.[1] ?? "";
    }
    return answer;
  }

  book(slot: { date: string; course: string; time: string; slotId: string }, players: Record<string, string> = MARIA_ALONE): Promise<SimPage> {
    return this.post("/members/book", { _csrf: this.csrf, ...slot, ...players });
  }
}

export const MARIA_ALONE = { p1_type: "Member", p1_last: "Santos", p1_id: "SW-1001", p1_cart: "Walking", p1_fee: "Charge to my account" };

export function slotOf(date: string, course: string, time: string) {
  return { date, course, time, slotId: `${course.slice(0, 3).toUpperCase()}-${date.replaceAll("-", "")}-${time.replace(":", "")}` };
}
