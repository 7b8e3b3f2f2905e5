/** The version of @formloom/core, which the built-in areas report as their plugin version. */
export const CORE_VERSION = '0.1.0';
