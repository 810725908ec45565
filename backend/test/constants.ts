export const TEMPLATE_DB = 'la_template';
export const RUN_DIR_PREFIX = 'la-test-';
