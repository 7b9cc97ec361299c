/** The one row a table shows when it has nothing to list. */
export function EmptyRow({ cols, text }: { cols: number; text: string }) {
  return (
    <tr>
      <td colSpan={cols} class="p-4 text-center text-mute">
        {text}
      </td>
    </tr>
  );
}
