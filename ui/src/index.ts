/**
 * @app/ui: the primitives and tokens the host, the dashboard and the admin share. Importing anything
 * from here brings the tokens (CSS custom properties) along, so every app that uses a primitive
 * also has the variables it reads.
 *
 * Forms are built from TextField and SelectField (Field with a render function for any other control): they
 * give the control its id, aria-invalid and aria-describedby, so no caller wires them by hand. Text only for
 * screen readers is VisuallyHidden; a translucent colour is rgb(var(--ui-<colour>-rgb) / alpha) from tokens.css.
 */
import './tokens.css';

export { Alert, type AlertTone } from './Alert';
export { Badge, type BadgeTone } from './Badge';
export { Button, ButtonSpinner, buttonClass, buttonStyles, type ButtonProps, type ButtonSize, type ButtonVariant } from './Button';
export { EmptyState } from './EmptyState';
export { Field, SelectField, TextField, fieldControlProps, fieldStyles, type FieldControlProps, type FieldProps } from './Field';
export { PageLayout } from './PageLayout';
export { Panel, panelStyles } from './Panel';
export { Spinner } from './Spinner';
export { tokenValue } from './tokens';
export { VisuallyHidden, visuallyHidden } from './VisuallyHidden';
