import { createSlice } from '@reduxjs/toolkit';

/** Spec §4: admin is locked, then unlocked on a successful admin login; kept in page memory only. */
const adminSessionSlice = createSlice({
  name: 'adminSession',
  initialState: { unlocked: false },
  reducers: {
    adminUnlocked(state) {
      state.unlocked = true;
    },
  },
});

export const { adminUnlocked } = adminSessionSlice.actions;
export const adminSessionReducer = adminSessionSlice.reducer;
