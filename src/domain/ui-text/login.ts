/** UI text of the sign-in page. */
export const loginText = {
  "login.title": "Sign in",
  "login.subtitle": "Members only. Sign in with your Teebox username and password.",
  "login.username": "Username",
  "login.password": "Password",
  "login.submit": "Sign in",
  "login.submitting": "Signing in…",
  "login.username_required": "Username is required.",
  "login.password_required": "Password is required.",
  "login.generic_error": "Login failed. Please check your credentials.",
  "login.invalid_credentials": "Invalid username or password.",
  "login.rate_limited": "Too many sign-in attempts. Please wait a few minutes and try again.",
} as const satisfies Record<string, string>;
