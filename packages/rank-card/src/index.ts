export {
  BACKGROUND_SHADE,
  type CardImage,
  cardImage,
  decodeImage,
  drawCardBase,
  fitted,
  font,
  hex,
} from './card-base.ts';
export { type RankCardPictures, renderRankCard } from './rank-card.ts';
