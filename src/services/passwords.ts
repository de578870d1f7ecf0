import type { AppDeps } from "../deps.ts";

export function hashPassword(deps: Pick<AppDeps, "passwordCost">, password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id", ...(deps.passwordCost ?? {}) });
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash).catch(() => false);
}
