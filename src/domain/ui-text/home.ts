/** UI text of the home page. */
export const homeText = {
  "home.title": "Home",
} as const satisfies Record<string, string>;
