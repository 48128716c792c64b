export const MEMBER_LIST_REFUSED_WARNING =
  "Discord did not let me read the member list (the bot's application needs the Server Members intent), so I checked members one by one.";
