/** Stylesheets imported for their side effect; Bun bundles them. */
declare module "*.css";
