/** Hands `text` to the browser as a downloaded file. */
export function download(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the address is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
