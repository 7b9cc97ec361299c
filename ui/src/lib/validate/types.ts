/** One validation failure: a catalog key, the form field, and for list rows the 1-based row. */
export interface FieldError {
  field: string;
  key: string;
  row?: number;
}
