/// <reference types="jest" />
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Field, SelectField, TextField } from './Field';
import { VisuallyHidden } from './VisuallyHidden';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLDivElement;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

const render = (ui: ReactNode) => act(() => root.render(ui));
const control = (id: string) => document.getElementById(id)!;
const describedBy = (id: string) => control(id).getAttribute('aria-describedby');

describe('TextField', () => {
  it('labels its input and points it at its hint; no error, no aria-invalid', () => {
    render(<TextField id="name" label="Key name" hint="Where you will use it." value="" onChange={() => {}} />);
    expect(document.querySelector('label')!.htmlFor).toBe('name');
    expect(control('name').tagName).toBe('INPUT');
    expect(control('name').hasAttribute('aria-invalid')).toBe(false);
    expect(describedBy('name')).toBe('name-hint');
    expect(control('name-hint').textContent).toBe('Where you will use it.');
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });

  it('with an error: aria-invalid, and the message (an alert) is among its descriptions', () => {
    render(<TextField id="name" label="Key name" hint="Hint" error="Name is required" value="" onChange={() => {}} />);
    expect(control('name').getAttribute('aria-invalid')).toBe('true');
    expect(describedBy('name')).toBe('name-hint name-error');
    expect(control('name-error').getAttribute('role')).toBe('alert');
    expect(control('name-error').textContent).toBe('Name is required');
  });

  it("'polite': the message is a live region that is always there, and the input always points at it", () => {
    render(<TextField id="city" label="City" announce="polite" error="" value="" onChange={() => {}} />);
    expect(describedBy('city')).toBe('city-error');
    expect(control('city-error').getAttribute('aria-live')).toBe('polite');
    expect(control('city').hasAttribute('aria-invalid')).toBe(false);
    render(<TextField id="city" label="City" announce="polite" error="City is required" value="" onChange={() => {}} />);
    expect(control('city').getAttribute('aria-invalid')).toBe('true');
    expect(control('city-error').textContent).toBe('City is required');
  });

  it("'none': the message shows without a role, and only when there is one", () => {
    render(<TextField id="cvc" label="CVC" announce="none" value="" onChange={() => {}} />);
    expect(document.getElementById('cvc-error')).toBeNull();
    expect(describedBy('cvc')).toBeNull();
    render(<TextField id="cvc" label="CVC" announce="none" error="Your card's security code is incomplete." value="" onChange={() => {}} />);
    expect(control('cvc-error').hasAttribute('role')).toBe(false);
    expect(describedBy('cvc')).toBe('cvc-error');
  });

  it('hands its ref and the other props to the input; describedBy adds outside ids first', () => {
    let input: HTMLInputElement | null = null;
    render(
      <TextField
        id="price"
        label="Listing Price"
        adornment="$"
        describedBy="price-note"
        ref={(el) => {
          input = el;
        }}
        inputMode="decimal"
        value="450000"
        onChange={() => {}}
      />,
    );
    expect(input).toBe(control('price'));
    expect(control('price').getAttribute('inputmode')).toBe('decimal');
    expect(describedBy('price')).toBe('price-note');
    expect(host.textContent).toContain('$');
  });
});

describe('SelectField and Field', () => {
  it('a select with its options, wired the same way', () => {
    render(
      <SelectField id="state" label="State" error="State is required" value="" onChange={() => {}}>
        <option value="">Select State</option>
      </SelectField>,
    );
    expect(control('state').tagName).toBe('SELECT');
    expect(control('state').getAttribute('aria-invalid')).toBe('true');
    expect(describedBy('state')).toBe('state-error');
  });

  it('Field hands the control props to a render function (a control with something beside it)', () => {
    render(
      <Field id="secret" label="Webhook secret" error="Too short">
        {(props) => (
          <div>
            <input {...props} />
            <button type="button">Remove</button>
          </div>
        )}
      </Field>,
    );
    expect(control('secret').getAttribute('aria-invalid')).toBe('true');
    expect(describedBy('secret')).toBe('secret-error');
  });
});

describe('VisuallyHidden', () => {
  it('renders the element asked for, with its text, in the hidden class', () => {
    render(
      <VisuallyHidden as="legend" id="legend">
        Card details
      </VisuallyHidden>,
    );
    expect(control('legend').tagName).toBe('LEGEND');
    expect(control('legend').className).toBe('visuallyHidden');
    expect(control('legend').textContent).toBe('Card details');
  });
});
