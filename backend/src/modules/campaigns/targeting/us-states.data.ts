/**
 * Resident population (2020 Census, April 1, 2020) and land area in square miles (Census Bureau
 * state area measurements) of the 50 states and DC, as used by the reach model. Values were entered
 * from the Census Bureau's published tables and are rounded; they serve an estimate, not a count.
 */
export interface StateFigures {
  name: string;
  population: number;
  landSqMi: number;
}

export const US_STATE_FIGURES: Readonly<Record<string, StateFigures>> = {
  AL: { name: 'Alabama', population: 5_024_279, landSqMi: 50_645 },
  AK: { name: 'Alaska', population: 733_391, landSqMi: 570_641 },
  AZ: { name: 'Arizona', population: 7_151_502, landSqMi: 113_594 },
  AR: { name: 'Arkansas', population: 3_011_524, landSqMi: 52_035 },
  CA: { name: 'California', population: 39_538_223, landSqMi: 155_779 },
  CO: { name: 'Colorado', population: 5_773_714, landSqMi: 103_642 },
  CT: { name: 'Connecticut', population: 3_605_944, landSqMi: 4_842 },
  DE: { name: 'Delaware', population: 989_948, landSqMi: 1_949 },
  DC: { name: 'District of Columbia', population: 689_545, landSqMi: 61 },
  FL: { name: 'Florida', population: 21_538_187, landSqMi: 53_625 },
  GA: { name: 'Georgia', population: 10_711_908, landSqMi: 57_513 },
  HI: { name: 'Hawaii', population: 1_455_271, landSqMi: 6_423 },
  ID: { name: 'Idaho', population: 1_839_106, landSqMi: 82_643 },
  IL: { name: 'Illinois', population: 12_812_508, landSqMi: 55_519 },
  IN: { name: 'Indiana', population: 6_785_528, landSqMi: 35_826 },
  IA: { name: 'Iowa', population: 3_190_369, landSqMi: 55_857 },
  KS: { name: 'Kansas', population: 2_937_880, landSqMi: 81_759 },
  KY: { name: 'Kentucky', population: 4_505_836, landSqMi: 39_486 },
  LA: { name: 'Louisiana', population: 4_657_757, landSqMi: 43_204 },
  ME: { name: 'Maine', population: 1_362_359, landSqMi: 30_843 },
  MD: { name: 'Maryland', population: 6_177_224, landSqMi: 9_707 },
  MA: { name: 'Massachusetts', population: 7_029_917, landSqMi: 7_800 },
  MI: { name: 'Michigan', population: 10_077_331, landSqMi: 56_539 },
  MN: { name: 'Minnesota', population: 5_706_494, landSqMi: 79_627 },
  MS: { name: 'Mississippi', population: 2_961_279, landSqMi: 46_923 },
  MO: { name: 'Missouri', population: 6_154_913, landSqMi: 68_742 },
  MT: { name: 'Montana', population: 1_084_225, landSqMi: 145_546 },
  NE: { name: 'Nebraska', population: 1_961_504, landSqMi: 76_824 },
  NV: { name: 'Nevada', population: 3_104_614, landSqMi: 109_781 },
  NH: { name: 'New Hampshire', population: 1_377_529, landSqMi: 8_953 },
  NJ: { name: 'New Jersey', population: 9_288_994, landSqMi: 7_354 },
  NM: { name: 'New Mexico', population: 2_117_522, landSqMi: 121_298 },
  NY: { name: 'New York', population: 20_201_249, landSqMi: 47_126 },
  NC: { name: 'North Carolina', population: 10_439_388, landSqMi: 48_618 },
  ND: { name: 'North Dakota', population: 779_094, landSqMi: 69_001 },
  OH: { name: 'Ohio', population: 11_799_448, landSqMi: 40_861 },
  OK: { name: 'Oklahoma', population: 3_959_353, landSqMi: 68_595 },
  OR: { name: 'Oregon', population: 4_237_256, landSqMi: 95_988 },
  PA: { name: 'Pennsylvania', population: 13_002_700, landSqMi: 44_743 },
  RI: { name: 'Rhode Island', population: 1_097_379, landSqMi: 1_034 },
  SC: { name: 'South Carolina', population: 5_118_425, landSqMi: 30_061 },
  SD: { name: 'South Dakota', population: 886_667, landSqMi: 75_811 },
  TN: { name: 'Tennessee', population: 6_910_840, landSqMi: 41_235 },
  TX: { name: 'Texas', population: 29_145_505, landSqMi: 261_232 },
  UT: { name: 'Utah', population: 3_271_616, landSqMi: 82_170 },
  VT: { name: 'Vermont', population: 643_077, landSqMi: 9_217 },
  VA: { name: 'Virginia', population: 8_631_393, landSqMi: 39_490 },
  WA: { name: 'Washington', population: 7_705_281, landSqMi: 66_456 },
  WV: { name: 'West Virginia', population: 1_793_716, landSqMi: 24_038 },
  WI: { name: 'Wisconsin', population: 5_893_718, landSqMi: 54_158 },
  WY: { name: 'Wyoming', population: 576_851, landSqMi: 97_093 },
};
