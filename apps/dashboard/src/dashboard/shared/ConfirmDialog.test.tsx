import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { UNDO_FROM_HISTORY, useConfirm } from './ConfirmDialog.tsx';

/** A page with one destructive button behind the confirmation, and a field before it. */
function Page({ action }: { action: () => unknown }) {
  const confirmation = useConfirm();
  const [done, setDone] = useState(0);
  return (
    <main>
      <input aria-label="Name" />
      <button
        type="button"
        onClick={() =>
          confirmation.ask({
            title: 'Delete this menu?',
            question: 'Delete the menu "Teams"?',
            confirmLabel: 'Delete menu',
            undoNote: UNDO_FROM_HISTORY,
            onConfirm: () => {
              setDone((n) => n + 1);
              return action();
            },
          })
        }
      >
        Delete
      </button>
      <output aria-label="Done">{done}</output>
      {confirmation.dialog}
    </main>
  );
}

function openDialog(action: () => unknown = () => undefined) {
  render(<Page action={action} />);
  const opener = screen.getByRole('button', { name: 'Delete' });
  opener.focus();
  fireEvent.click(opener);
  return { opener, dialog: screen.getByRole('alertdialog') };
}

const done = () => screen.getByRole('status', { name: 'Done' }).textContent;

describe('ConfirmDialog', () => {
  it('is a modal alert dialog named by its title and described by its question', () => {
    const { dialog } = openDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('alertdialog', { name: 'Delete this menu?' })).toBe(dialog);
    const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe(`Delete the menu "Teams"?${UNDO_FROM_HISTORY}`);
    // Over the page, not inside it: nothing around it clips or styles it.
    expect(dialog.closest('main')).toBeNull();
  });

  it('starts on Cancel, keeps Tab inside, and gives the focus back to its button on Escape', () => {
    const { opener, dialog } = openDialog();
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete menu' });
    expect(document.activeElement).toBe(cancel);
    confirm.focus();
    fireEvent.keyDown(confirm, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    fireEvent.keyDown(cancel, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    fireEvent.keyDown(confirm, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(done()).toBe('0');
  });

  it('gives the focus back after Cancel too', () => {
    const { opener, dialog } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes at once after a plain action', () => {
    const { opener, dialog } = openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete menu' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(done()).toBe('1');
    expect(document.activeElement).toBe(opener);
  });

  it('waits for a running action with both buttons off and Escape ignored, then closes', async () => {
    let finish = () => {};
    const running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const { dialog } = openDialog(() => running);
    const confirm = within(dialog).getByRole('button', { name: 'Delete menu' });
    fireEvent.click(confirm);
    expect(confirm).toHaveProperty('disabled', true);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
    expect(dialog.getAttribute('aria-busy')).toBe('true');
    // The focus stays in the dialog, not lost on a disabled button.
    expect(document.activeElement).toBe(dialog);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(confirm);
    expect(screen.getByRole('alertdialog')).toBe(dialog);
    expect(done()).toBe('1');
    await act(async () => finish());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('closes when the running action fails (the page shows why)', async () => {
    let fail = () => {};
    const running = new Promise<void>((_, reject) => {
      fail = () => reject(new Error('Discord did not answer'));
    });
    const { dialog } = openDialog(() => running);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete menu' }));
    await act(async () => fail());
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
