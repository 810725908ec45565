export declare const TEMPLATE_DB = "la_template";
export declare const RUN_DIR_PREFIX = "la-test-";
