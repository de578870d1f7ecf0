import { asc } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { formOptions, uiText } from "../db/schema.ts";
import type { FormOptionCategory } from "../db/schema.ts";

export interface FormOption {
  category: FormOptionCategory;
  value: string;
}

export async function listFormOptions(db: Db): Promise<FormOption[]> {
  const rows = await db.select().from(formOptions).orderBy(asc(formOptions.category), asc(formOptions.position), asc(formOptions.id));
  return rows.map((r) => ({ category: r.category, value: r.value }));
}

export async function readUiText(db: Db): Promise<Record<string, string>> {
  const rows = await db.select().from(uiText);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
