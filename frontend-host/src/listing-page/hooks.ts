import { useDispatch, useSelector } from 'react-redux';
import type { ListingDispatch, ListingState } from './store';

export const useListingDispatch = useDispatch.withTypes<ListingDispatch>();
export const useListingSelector = useSelector.withTypes<ListingState>();
