"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RUN_DIR_PREFIX = exports.TEMPLATE_DB = void 0;
exports.TEMPLATE_DB = 'la_template';
exports.RUN_DIR_PREFIX = 'la-test-';
//# sourceMappingURL=constants.js.map